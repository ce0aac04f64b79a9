#!/usr/bin/env python3
"""Spec conformance sweep (issue 40): every command that writes files, at tiny sizes, against docs/report-spec.json.

    RedTeam/extra/spec.py HABITAT [FILTER]

Each case runs one command (or a few: shards then merge) in a sandbox with canaries and checks what it wrote with
Notebooks/report_spec.py's `check_folder` / `check_csv` (standard library): every file written is described in
docs/report-spec.json (by name or pattern: `trace-<arm>-person-<N>.csv`; calibration and benchmark files; manifests),
every described column is present in order with no other (key columns first where the spec says so), the key values
well-formed, and every CSV's values sane: no NaN or ±inf, no negative count, shares — and intervals for shares —
inside 0…1, low ≤ estimate ≤ high for every interval the spec lists, a joint fit's `<product>:<figure>` row labelled
with its own product. Each case also expects exit 0, no crash, stderr lines at most 1 KB, the canaries intact and
nothing written outside the case's own output.

Commands: run (one arm; arms with an acquisition curve and `outputs.trace_people`; a sweep; products as arms with
traces; Earned Access and Nudge), run --shard 1/2 + 2/2 and merge, trace --out (each product), compare --out, check
--out and check --record, calibrate (one product) and a three-product joint fit, bench kernel --out. Sizes: tens of
people, a few days, three replications (so share intervals are over replications — where a Student-t interval left
0…1 before issue 40).
"""
import os
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the checkout
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Notebooks"))
import rt  # noqa: E402
import report_spec  # noqa: E402

H, FILTER = rt.habitat_from_argv("spec.py HABITAT [FILTER]")
suite = rt.Suite("spec conformance: every file written described and sane", FILTER)
SC = os.path.join(rt.REPO, "Scenarios")
SMALL = ["--people", "40", "--days", "9", "--replications", "3", "--progress", "never"]
TIMEOUT = max(rt.TIMEOUT, 60)

SCENARIOS = {
    "arms.yaml": """name: spec-arms
product: earned-access
start: 2026-01-05
seed: 40
horizon_days: 9
replications: 3
population:
  installs: 40
  acquisition:
    per_day: 10
arms:
  - name: control
  - name: twin
outputs:
  trace_people: [0, 3]
""",
    "sweep.yaml": """name: spec-sweep
product: scroll-off
start: 2026-01-05
seed: 41
horizon_days: 9
replications: 3
population:
  installs: 40
sweep:
  rules.tokens.monthly_purchase_cap: [3, 5]
""",
    "products.yaml": """name: spec-products
seed: 42
start: 2026-01-05
horizon_days: 9
replications: 3
population:
  installs: 40
products: [scroll-off, earned-access, nudge, none]
outputs:
  trace_people: [1]
""",
    "ea.yaml": "name: ea\nproduct: earned-access\nstart: 2026-01-05\nhorizon_days: 5\npopulation:\n  installs: 10\n",
    "nu.yaml": "name: nu\nproduct: nudge\nstart: 2026-01-05\nhorizon_days: 5\npopulation:\n  installs: 10\n",
}


def new_sandbox(name):
    sb = rt.Sandbox(f"spec-{name}")
    cwd = sb.mkdir("work")
    sb.canary("", "work", "home")
    for file, text in SCENARIOS.items():
        with open(os.path.join(cwd, file), "w") as f:
            f.write(text)
    return sb, cwd


def command_problems(res, what):
    p = rt.common_problems(res, {0}, what)
    long = [l for l in res.err.splitlines() if len(l.encode()) > 1024]
    if long:
        p.append(f"{what}a stderr line of {len(long[0].encode())} bytes")
    if res.forbidden():
        p.append(f"{what}library internals on stderr: {' '.join(res.forbidden())}")
    return p


def case(name, steps, outputs, singles=()):
    """Runs `steps` (argument lists, in order, in a fresh sandbox's work/), then checks every folder in `outputs`
    (check_folder) and every (file, kind) in `singles` (check_csv against the command's one-file output)."""
    if not suite.wants(name):
        return
    sb, cwd = new_sandbox(name)
    scenario_files = {f: rt.sha256(os.path.join(cwd, f)) for f in SCENARIOS}
    problems = []
    for i, args in enumerate(steps):
        res = sb.run([H] + args, cwd=cwd, timeout=TIMEOUT, name=f"{name}-{i}")
        problems += command_problems(res, f"{args[0]}: ")
        if problems:
            break
    if not problems:
        for folder in outputs:
            problems += report_spec.check_folder(os.path.join(cwd, folder))
        for file, kind in singles:
            path = os.path.join(cwd, file)
            entry = report_spec.describe(os.path.basename(file), kind)
            problems += [f"{file}: not written"] if not os.path.isfile(path) else report_spec.check_csv(path, entry, kind)
    lost = sb.canaries_intact()
    if lost:
        problems.append("canaries changed: " + " ".join(lost))
    changed = [f for f, h in scenario_files.items() if rt.sha256(os.path.join(cwd, f)) != h]
    if changed:
        problems.append("scenario files changed: " + " ".join(changed))
    suite.record(name, problems, f"{len(steps)} command(s), {len(outputs) + len(singles)} output(s) as described")
    sb.cleanup()


SO = ["run"] + SMALL
case("spec-run-one-arm", [SO + ["--out", "r"]], ["r"])
case("spec-run-arms-acquisition-traces", [["run", "arms.yaml", "--progress", "never", "--out", "r"]], ["r"])
case("spec-run-sweep", [["run", "sweep.yaml", "--progress", "never", "--out", "r"]], ["r"])
case("spec-run-products-as-arms-traces", [["run", "products.yaml", "--progress", "never", "--out", "r"]], ["r"])
case("spec-run-earned-access", [["run", os.path.join(SC, "earned-access-baseline.yaml")] + SMALL + ["--out", "r"]], ["r"])
case("spec-run-nudge", [["run", os.path.join(SC, "nudge-baseline.yaml")] + SMALL + ["--out", "r"]], ["r"])
case("spec-run-forecast", [["run", os.path.join(SC, "launch-forecast-12m.yaml")] + SMALL + ["--out", "r"]], ["r"])
# The benchmark's folder rides along here: it passed before issue 40 and is no case of its own.
case("spec-shards-merge-bench", [SO + ["--shard", "1/2", "--out", "s1"], SO + ["--shard", "2/2", "--out", "s2"],
                                 ["merge", "s1", "s2", "--out", "m", "--progress", "never"],
                                 ["bench", "kernel", "--workload", "mm1", "--customers", "50", "--progress", "never", "--out", "bk"]],
     ["s1", "s2", "m", "bk"])
for product, scenario in [("scroll-off", []), ("earned-access", ["ea.yaml"]), ("nudge", ["nu.yaml"])]:
    case(f"spec-trace-out-{product}", [["trace"] + scenario + ["--person", "2", "--replication", "1", "--days", "3", "--out", "t.csv"]],
         [], [("t.csv", "trace")])
case("spec-compare-out", [SO + ["--out", "a"], ["run", "sweep.yaml", "--progress", "never", "--out", "b"],
                          ["compare", "a", "b", "--out", "c.csv"], ["compare", "b", "--out", "arms.csv"]],
     ["a", "b"], [("c.csv", "compare"), ("arms.csv", "compare")])
case("spec-check-record-and-out", [["check", "--people", "40", "--days", "9", "--replications", "3", "--baseline", "bl",
                                    "--record", "--reason", "spec sweep"],
                                   ["check", "--people", "40", "--days", "9", "--replications", "3", "--baseline", "bl",
                                    "--out", "chk.csv"]],
     ["bl"], [("chk.csv", "check")])
CAL = ["--people", "20", "--days", "4", "--replications", "1", "--fit", "behavior.churn.base_hazard", "--budget", "2"]
case("spec-calibrate", [["calibrate"] + CAL + ["--out", "cal"]], ["cal"])
case("spec-calibrate-joint-three-products", [["calibrate", "--also", "ea.yaml", "--also", "nu.yaml"] + CAL + ["--out", "joint"]], ["joint"])
# Issue 45: a sensitivity analysis (Morris; Sobol as two shards merged), a plausible set, and runs with --robustness
# over it (two arms; products as arms, which adds product-comparison-robustness.csv).
PRICE = os.path.join(SC, "premium-price-test.yaml")
SENS = ["sensitivity", PRICE, "--people", "40", "--days", "9", "--replications", "2", "--progress", "never", "--samples", "2"]
case("spec-sensitivity-morris", [SENS + ["--unpinned", "--span", "0.5", "--out", "s"]], ["s"])
SOB = SENS + ["--method", "sobol", "--params", "behavior.churn.base_hazard", "behavior.purchase.buy_constant", "--span", "0.3", "--resamples", "20"]
case("spec-sensitivity-sobol-shards-merged", [SOB + ["--shard", "1/2", "--out", "s1"], SOB + ["--shard", "2/2", "--out", "s2"],
                                              SOB + ["--merge", "s1", "s2", "--out", "m"]], ["s1", "s2", "m"])
PL = ["calibrate", "--people", "30", "--days", "9", "--replications", "1", "--fit", "behavior.churn.base_hazard",
      "--fit", "behavior.churn.value_weight", "--span", "0.5", "--plausible", "2", "--budget", "4", "--waves", "2", "--out", "pl"]
case("spec-calibrate-plausible", [PL], ["pl"])
case("spec-run-robustness", [PL, ["run", PRICE] + SMALL + ["--robustness", "pl", "--out", "r"]], ["pl", "r"])
case("spec-run-robustness-products", [PL, ["run", "products.yaml", "--progress", "never", "--robustness", "pl", "--out", "r"]], ["r"])
suite.finish()
