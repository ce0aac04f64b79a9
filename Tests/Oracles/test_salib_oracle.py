#!/usr/bin/env python3
"""An independent oracle for `habitat sensitivity` (issue 45): SALib analyses habitat's own design.

For each test function habitat ships (`--function ishigami`, `--function g-function`) the test runs habitat, reads
the design it simulated (sensitivity-design.csv: the parameter columns X, the one output column Y) and hands them to
SALib (pinned in Tests/Oracles/requirements.txt):

- Sobol (`--method sobol --samples 1024 --resamples 100`): the design's rows are in the order of SALib's
  `sobol.sample(calc_second_order=False)` — per base row A, AB_1 … AB_D, B —, so
  `SALib.analyze.sobol.analyze(problem, Y, calc_second_order=False)` reads them as they are. Its S1 (Saltelli 2010)
  and ST (Jansen) must equal habitat's s1 and st within 1e-6 (the CSV's 6 decimals), and both must lie within a
  stated tolerance of the published analytic indices (computed here from their formulas).
- Morris (`--method morris --samples 50`, 4 levels): `SALib.analyze.morris.analyze(problem, X, Y, num_levels=4)`;
  its mu, mu_star and sigma must equal habitat's within 1e-6 (elementary effects (f(x + Δ) − f(x)) / Δ in the unit
  cube, Δ = p / (2(p − 1)), σ with n − 1).

The bootstrap intervals are not compared (each tool draws its own resamples), nor SALib's own sample against
habitat's design (a different scrambling of the Sobol sequence). Usage:

    python3 Tests/Oracles/test_salib_oracle.py [HABITAT]    # HABITAT: the binary (default $HABITAT, else .build/release/habitat)
"""
from __future__ import annotations

import csv
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
EXACT = 1e-6           # habitat writes its indices with 6 decimals
FAILURES: list[str] = []

# Published analytic indices, within this distance of habitat's estimate at 1024 base rows (N(D + 2) points). The
# estimators' sampling error at N = 1024 is a few hundredths for Ishigami's first-order indices (its bootstrap 95 %
# half-width is about 0.08) and below one hundredth for the g-function's, whose output varies less.
PUBLISHED_TOLERANCE = {"ishigami": 0.05, "g-function": 0.02}


def check(condition: bool, message: str) -> None:
    if not condition:
        FAILURES.append(message)


# --- The analytic indices -----------------------------------------------------------------------------------------

def ishigami_indices(a: float = 7.0, b: float = 0.1) -> tuple[list[float], list[float]]:
    """Ishigami and Homma (1990): f = sin x1 + a sin² x2 + b x3⁴ sin x1 on [−π, π]³; S1 and ST of x1, x2, x3."""
    pi4, pi8 = math.pi ** 4, math.pi ** 8
    v1 = 0.5 * (1 + b * pi4 / 5) ** 2
    v2 = a ** 2 / 8
    v13 = b ** 2 * pi8 * (1 / 18 - 1 / 50)
    v = v1 + v2 + v13
    return [v1 / v, v2 / v, 0.0], [(v1 + v13) / v, v2 / v, v13 / v]


def g_function_indices(a=(0, 1, 4.5, 9, 99, 99, 99, 99)) -> tuple[list[float], list[float]]:
    """Sobol's g-function: Π (|4xᵢ − 2| + aᵢ) / (1 + aᵢ) on [0, 1]^D; partial variances 1 / (3 (1 + aᵢ)²)."""
    vi = [1 / (3 * (1 + ai) ** 2) for ai in a]
    total = math.prod(1 + v for v in vi) - 1
    s1 = [v / total for v in vi]
    st = [v * math.prod(1 + w for j, w in enumerate(vi) if j != i) / total for i, v in enumerate(vi)]
    return s1, st


PUBLISHED = {"ishigami": ishigami_indices(), "g-function": g_function_indices()}


def check_published_formulas() -> None:
    """The formulas give the published values (Ishigami a = 7, b = 0.1: S1 0.3139, 0.4424, 0; ST 0.5576, 0.4424,
    0.2437; g-function a = (0, 1, 4.5, 9, 99, 99, 99, 99): S1 0.7162, 0.1790, 0.0237, 0.0072, …)."""
    s1, st = PUBLISHED["ishigami"]
    for got, want in zip(s1 + st, [0.3139, 0.4424, 0.0, 0.5576, 0.4424, 0.2437]):
        check(abs(got - want) < 5e-5, f"Ishigami's analytic index {got:.5f}, published {want}")
    s1, st = PUBLISHED["g-function"]
    for got, want in zip(s1[:4] + st[:4], [0.7162, 0.1790, 0.0237, 0.0072, 0.7871, 0.2422, 0.0343, 0.0105]):
        check(abs(got - want) < 5e-5, f"the g-function's analytic index {got:.5f}, published {want}")


# --- habitat's run ------------------------------------------------------------------------------------------------

def run_habitat(habitat: str, function: str, method: str, samples: int, out: Path) -> tuple[list[dict], list[dict]]:
    """habitat sensitivity --function FUNCTION …: the rows of sensitivity.csv and of sensitivity-design.csv."""
    command = [habitat, "sensitivity", "--function", function, "--method", method, "--samples", str(samples),
               "--resamples", "100", "--out", str(out), "--progress", "never"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"test_salib_oracle: {' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    with open(out / "sensitivity.csv", newline="", encoding="utf-8") as f:
        indices = list(csv.DictReader(f))
    with open(out / "sensitivity-design.csv", newline="", encoding="utf-8") as f:
        design = list(csv.DictReader(f))
    return indices, design


def problem_and_data(indices: list[dict], design: list[dict]):
    """SALib's problem (names and bounds from sensitivity.csv, in its parameter order), X (the design's parameter
    columns) and Y (its one output column)."""
    import numpy as np
    names = [r["parameter"] for r in indices]
    bounds = [[float(r["low"]), float(r["high"])] for r in indices]
    outputs = [c for c in design[0] if c not in ("point", "role") and c not in names]
    if len(outputs) != 1:
        raise SystemExit(f"test_salib_oracle: sensitivity-design.csv has outputs {outputs}; a test function has one")
    X = np.array([[float(row[n]) for n in names] for row in design])
    Y = np.array([float(row[outputs[0]]) for row in design])
    return {"num_vars": len(names), "names": names, "bounds": bounds}, X, Y


def uncentred_first_order(Y, d: int) -> list[float]:
    """Saltelli's first-order estimator mean(B·(AB_j − A)) / var(A ∪ B) on Y as it is (not centred): what a
    difference from SALib's S1 is measured against, to say why in the failure."""
    import numpy as np
    step = d + 2
    A, B = Y[0::step], Y[step - 1::step]
    variance = np.var(np.r_[A, B])
    return [float(np.mean(B * (Y[j + 1::step] - A)) / variance) for j in range(d)]


def check_sobol(habitat: str, function: str, work: Path) -> None:
    from SALib.analyze import sobol
    indices, design = run_habitat(habitat, function, "sobol", 1024, work / f"{function}-sobol")
    problem, _, Y = problem_and_data(indices, design)
    d = problem["num_vars"]
    check(len(Y) == 1024 * (d + 2), f"{function} sobol: {len(Y)} design points, Saltelli's design has N(D + 2) = "
          f"{1024 * (d + 2)}")
    roles = [row["role"] for row in design[: d + 2]]
    check(roles == ["A1"] + [f"AB{j}_1" for j in range(1, d + 1)] + ["B1"],
          f"{function} sobol: the first base row's roles {roles}, SALib's order is A, AB1…AB{d}, B")
    salib = sobol.analyze(problem, Y, calc_second_order=False, num_resamples=100, seed=1, print_to_console=False)
    uncentred = uncentred_first_order(Y, d)
    published_s1, published_st = PUBLISHED[function]
    tolerance = PUBLISHED_TOLERANCE[function]
    for i, row in enumerate(indices):
        name = row["parameter"]
        s1, st = float(row["s1"]), float(row["st"])
        why = (f"; habitat's is the estimator on Y uncentred ({uncentred[i]:.6f}) — SALib centres Y (minus its mean "
               "over all N(D + 2) outputs) first, and mean(B·(AB − A)) is not invariant to a shift of Y"
               if abs(s1 - uncentred[i]) <= EXACT else "")
        check(abs(s1 - salib["S1"][i]) <= EXACT,
              f"{function} {name}: habitat's S1 {s1:.6f}, SALib's {salib['S1'][i]:.6f} on the same design and Y "
              f"(difference {s1 - salib['S1'][i]:+.2e}){why}")
        check(abs(st - salib["ST"][i]) <= EXACT,
              f"{function} {name}: habitat's ST {st:.6f}, SALib's {salib['ST'][i]:.6f}")
        for what, value, want in (("S1", s1, published_s1[i]), ("ST", st, published_st[i])):
            check(abs(value - want) <= tolerance,
                  f"{function} {name}: habitat's {what} {value:.4f} is more than {tolerance} from the analytic "
                  f"{want:.4f}")


def check_morris(habitat: str, function: str, work: Path) -> None:
    from SALib.analyze import morris
    indices, design = run_habitat(habitat, function, "morris", 50, work / f"{function}-morris")
    problem, X, Y = problem_and_data(indices, design)
    d = problem["num_vars"]
    check(len(Y) == 50 * (d + 1), f"{function} morris: {len(Y)} design points, r(D + 1) = {50 * (d + 1)}")
    salib = morris.analyze(problem, X, Y, num_levels=4, num_resamples=100, seed=1, print_to_console=False)
    for i, row in enumerate(indices):
        for column, key in (("mu", "mu"), ("mu_star", "mu_star"), ("sigma", "sigma")):
            ours, theirs = float(row[column]), float(salib[key][i])
            check(abs(ours - theirs) <= EXACT * max(1.0, abs(theirs)),
                  f"{function} morris {row['parameter']}: habitat's {column} {ours:.6f}, SALib's {theirs:.6f}")


def main(argv: list[str]) -> int:
    habitat = argv[1] if len(argv) > 1 else os.environ.get("HABITAT", str(REPOSITORY / ".build/release/habitat"))
    if not Path(habitat).is_file():
        print(f"test_salib_oracle: no habitat binary at {habitat} (give its path, or set HABITAT)", file=sys.stderr)
        return 2
    try:
        import SALib  # noqa: F401
    except ImportError:
        print("test_salib_oracle: SALib is missing — make setup-test installs it (Tests/Oracles/requirements.txt)",
              file=sys.stderr)
        return 2
    check_published_formulas()
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        for function in ("ishigami", "g-function"):
            check_sobol(habitat, function, work)
            check_morris(habitat, function, work)
    for f in FAILURES:
        print(f"test_salib_oracle: FAIL {f}", file=sys.stderr)
    if FAILURES:
        return 1
    print("test_salib_oracle: SALib's Sobol S1/ST and Morris mu/mu*/sigma on habitat's own designs (Ishigami, "
          "g-function) equal habitat's within 1e-6, and the Sobol indices are near the analytic ones: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
