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
    """A small `habitat sensitivity` folder made once per process under `root` (about 5 s): Morris, 3 trajectories,
    premium-price-test's two arms, ±50 % around the defaults of the two purchase parameters the price acts through
    (the tier price scale and the buy constant, which move the paired differences) and two the fits leave unpinned
    (the renewal intercept, which a 30-day run never reaches, and the dormant leave constant, which moves both arms
    alike): a tornado with parameters that matter and parameters that provably do not."""
    out = Path(root) / "sensitivity"
    if (out / "sensitivity.csv").is_file():
        return out
    binary = habitat_binary()
    if binary is None:
        raise RunUnavailable("no habitat binary: build it (swift build) or set HABITAT=/path/to/habitat")
    command = [str(binary), "sensitivity", str(REPO / "Scenarios" / "premium-price-test.yaml"), "--people", "200",
               "--days", "30", "--replications", "1", "--params", "behavior.purchase.tier_scale_usd",
               "behavior.purchase.buy_constant", "behavior.purchase.renew_intercept", "behavior.dormant.leave_constant",
               "--span", "0.5", "--samples", "3", "--resamples", "200",
               "--out", str(out), "--progress", "never"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RunUnavailable(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.strip()[-400:]}")
    return out


def robustness_run(root: Path) -> Path:
    """A run of premium-price-test's two arms with --robustness over 3 worlds of the plausible set Habitat ships
    (`Calibration/plausible/plausible-set.csv`), 200 people × 30 days × 2 replications."""
    out = Path(root) / "robustness"
    if (out / "robustness.csv").is_file():
        return out
    binary = habitat_binary()
    if binary is None:
        raise RunUnavailable("no habitat binary: build it (swift build) or set HABITAT=/path/to/habitat")
    command = [str(binary), "run", str(REPO / "Scenarios" / "premium-price-test.yaml"), "--people", "200",
               "--days", "30", "--replications", "2", "--robustness", "3",
               "--plausible-set", str(REPO / "Calibration" / "plausible" / "plausible-set.csv"),
               "--out", str(out), "--progress", "never"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RunUnavailable(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.strip()[-400:]}")
    return out
