"""Small real runs for the report tools' tests, made with the habitat binary (standard library only).

The committed baselines (Reports/baselines/*) are each of one product; a run whose arms are different products
(issue 28: product-comparison.csv; Scroll Off, Earned Access, Nudge and none), a run of Nudge alone (issue 29: its own
ai-cost.csv and tasks.csv; no baseline of it is committed), a run of Lazuri alone (issue 43: its study.csv), a run
of Clavis with two arms of its match policy (issue 44: two points of scan-policy.csv's trade-off curve) and a run
of `none` (no app: only the product-neutral files) are made here, fresh, with the binary the tests are given:

    HABITAT=/path/to/habitat python3 Notebooks/test_report_page.py      (make passes its own)

Without HABITAT the repository's .build/debug/habitat, then .build/release/habitat, is used; without any, the tests
that need these runs fail saying so. Each run is small (tens of people, a few seconds) and made once per test process.
"""
from __future__ import annotations

import os
import subprocess
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Products as arms (issue 28; Nudge since issue 29): three products and none, two personas (the persona rows), tenures that end on day 14
# (learning.csv's untreated weeks after it), long enough for weeks 0–4 and two replications (intervals).
PRODUCTS_SCENARIO = """\
name: products-test
products: [scroll-off, earned-access, nudge, none]
horizon_days: 28
replications: 2
tenure_days: 14
population:
  installs: 60
  personas:
    - name: worker
      share: 0.5
    - name: student
      share: 0.5
"""

# No app at all: kpis.csv, learning.csv, world-check.csv and manifest.json only.
NONE_SCENARIO = """\
name: none-test
product: none
horizon_days: 21
replications: 2
population:
  installs: 60
"""


# Nudge alone (issue 29): its own reports (ai-cost.csv, tasks.csv) beside what every product with an app writes; two
# months (the AI cost by month), installs spread over days (tasks.csv's people thin out late), two replications.
NUDGE_SCENARIO = """\
name: nudge-test
product: nudge
start: 2026-01-20
horizon_days: 21
replications: 2
population:
  installs: 60
"""


# Lazuri alone (issue 43): its own reports (focus.csv, cards.csv, study.csv) on a few people, two replications (too
# few for the study's histogram: the page says so).
LAZURI_SCENARIO = """\
name: lazuri-test
product: lazuri
horizon_days: 10
replications: 2
population:
  installs: 16
"""


# Clavis (issue 44): its own reports (lock-cycles.csv, scans.csv, scan-policy.csv) on a few people, its match
# policy's threshold swept over two arms (two points of the trade-off curve; the sweep keeps the named arm too, at the
# default policy: three arms), two replications.
CLAVIS_SCENARIO = """\
name: clavis-test
product: clavis
horizon_days: 14
replications: 2
population:
  installs: 40
arms:
  - name: policy
sweep:
  rules.verify.threshold: [0.85, 0.95]
"""


class RunUnavailable(RuntimeError):
    """The habitat binary is missing or the run failed (the message says which and how to fix it)."""


def habitat_binary() -> Path | None:
    """$HABITAT, else the repository's debug build, else its release build; None when none is there."""
    given = os.environ.get("HABITAT")
    candidates = [Path(given)] if given else [REPO / ".build" / "debug" / "habitat",
                                              REPO / ".build" / "release" / "habitat"]
    return next((p for p in candidates if p.is_file() and os.access(p, os.X_OK)), None)


def make_run(scenario: str, out: Path) -> Path:
    """Runs `scenario` (YAML text) into `out` with the habitat binary; returns `out`."""
    binary = habitat_binary()
    if binary is None:
        raise RunUnavailable("no habitat binary: build it (swift build) or set HABITAT=/path/to/habitat")
    out.parent.mkdir(parents=True, exist_ok=True)
    yaml = out.parent / f"{out.name}.yaml"
    yaml.write_text(scenario, encoding="utf-8")
    done = subprocess.run([str(binary), "run", str(yaml), "--out", str(out), "--progress", "never"],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RunUnavailable(f"{binary} run {yaml}: exit {done.returncode}: {done.stderr.strip()[-400:]}")
    return out


@lru_cache(maxsize=None)
def _cached(scenario: str, root: str) -> Path:
    return make_run(scenario, Path(root) / f"run-{abs(hash(scenario)) % 10**8}")


def products_run(root: Path) -> Path:
    """A small run whose arms are scroll-off, earned-access and none (made once per process under `root`)."""
    return _cached(PRODUCTS_SCENARIO, str(root))


def nudge_run(root: Path) -> Path:
    """A small run of Nudge alone (made once per process under `root`)."""
    return _cached(NUDGE_SCENARIO, str(root))


def none_run(root: Path) -> Path:
    """A small run of none, no app (made once per process under `root`)."""
    return _cached(NONE_SCENARIO, str(root))


def lazuri_run(root: Path) -> Path:
    """A small run of Lazuri alone (made once per process under `root`)."""
    return _cached(LAZURI_SCENARIO, str(root))


def clavis_run(root: Path) -> Path:
    """A small run of Clavis, its threshold swept over two arms (made once per process under `root`)."""
    return _cached(CLAVIS_SCENARIO, str(root))


# --- Issue 45: a sensitivity analysis and a run with --robustness --------------------------------------------------

def sensitivity_run(root: Path) -> Path:
    """A small `habitat sensitivity` folder (Morris, premium-price-test's two arms, 3 trajectories over the
    parameters today's fits leave unpinned: about 10 s), made once per process under `root`."""
    out = Path(root) / "sensitivity"
    if (out / "sensitivity.csv").is_file():
        return out
    binary = habitat_binary()
    if binary is None:
        raise RunUnavailable("no habitat binary: build it (swift build) or set HABITAT=/path/to/habitat")
    command = [str(binary), "sensitivity", str(REPO / "Scenarios" / "premium-price-test.yaml"), "--people", "200",
               "--days", "30", "--replications", "1", "--unpinned", "--samples", "3", "--resamples", "200",
               "--out", str(out), "--progress", "never"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RunUnavailable(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.strip()[-400:]}")
    return out


def has_robustness(binary: Path | None = None) -> bool:
    """Whether the habitat binary has `run --robustness` (issue 45; the binary of a branch before it has not)."""
    binary = binary or habitat_binary()
    if binary is None:
        return False
    done = subprocess.run([str(binary), "run", "--help"], capture_output=True, text=True, timeout=60)
    return "--robustness" in done.stdout


def robustness_run(root: Path) -> Path:
    """A run of premium-price-test's two arms with --robustness: made with the binary (3 plausible worlds, 200
    people × 30 days) when it has the option; otherwise a stand-in, the committed premium-price-test baseline with a
    robustness.csv and experiment.csv's robustness columns written here — worlds that keep, shrink and flip each
    difference —, so the pictures and the page are checked before the binary writes them."""
    out = Path(root) / "robustness"
    if (out / "robustness.csv").is_file():
        return out
    binary = habitat_binary()
    if binary is not None and has_robustness(binary):
        command = [str(binary), "run", str(REPO / "Scenarios" / "premium-price-test.yaml"), "--people", "200",
                   "--days", "30", "--replications", "2", "--robustness", "3", "--out", str(out), "--progress", "never"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            raise RunUnavailable(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.strip()[-400:]}")
        return out
    return robustness_stand_in(REPO / "Reports" / "baselines" / "scroll-off-hard-paywall", out)


def robustness_stand_in(baseline: Path, out: Path, factors=(1.3, 0.6, 1.1, -0.4, 0.9, 1.2)) -> Path:
    """A copy of a run with arms, given robustness.csv (world 0 the run's own paired differences, then a world per
    factor: each difference × the factor — the factors turned by one place per row, so that some rows flip in one
    world and others in another —, its interval scaled alike) and experiment.csv's robustness columns, as `habitat
    run --robustness` writes them (docs/report-spec.json)."""
    import csv
    import shutil
    shutil.copytree(baseline, out)
    with open(out / "experiment.csv", newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        header, rows = list(reader.fieldnames or []), list(reader)
    keys = ["scenario", "arm", "replication", "product"]
    robust_rows, worlds = [], len(factors)
    for i, r in enumerate(rows):
        turned = (1.0,) + tuple(factors[(i + k) % len(factors)] for k in range(len(factors)))
        if r["diff"] == "":
            r.update(robust_worlds="", sign_share="", robust_diff_low="", robust_diff_high="", robustness="")
            continue
        diff, low, high = float(r["diff"]), float(r["diff_ci_low"]), float(r["diff_ci_high"])
        diffs = []
        for world, factor in enumerate(turned):
            d, lo, hi = diff * factor, min(low * factor, high * factor), max(low * factor, high * factor)
            same = (d > 0) == (diff > 0) and d != 0
            diffs.append(d)
            robust_rows.append({**{k: r[k] for k in keys}, "world": str(world), "kpi": r["kpi"], "unit": r["unit"],
                                "control_arm": r["control_arm"], "diff": f"{d:.6f}", "diff_ci_low": f"{lo:.6f}",
                                "diff_ci_high": f"{hi:.6f}", "default_diff": f"{diff:.6f}",
                                "same_sign": "true" if same or diff == 0 else "false"})
        kept = sum(1 for d in diffs[1:] if (d > 0) == (diff > 0) and d != 0)
        zero = low <= 0 <= high
        r.update(robust_worlds=str(worlds), sign_share=f"{kept / worlds:.6f}", robust_diff_low=f"{min(diffs):.6f}",
                 robust_diff_high=f"{max(diffs):.6f}",
                 robustness="no difference" if zero else ("robust" if kept == worlds
                                                          else "depends on behavior.dormant.leave_constant"))
    extra = ["robust_worlds", "sign_share", "robust_diff_low", "robust_diff_high", "robustness"]
    with open(out / "experiment.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=header + extra, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    columns = keys + ["world", "kpi", "unit", "control_arm", "diff", "diff_ci_low", "diff_ci_high", "default_diff",
                      "same_sign"]
    with open(out / "robustness.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(robust_rows)
    return out
