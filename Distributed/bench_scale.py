#!/usr/bin/env python3
"""Person-days per second of one scenario run as Ray shards (habitat-ray), for one or more shard counts.

    python3 Distributed/bench_scale.py HABITAT_BINARY [--scenario PATH] [--people P --days D --replications R]
                                      [--shards 1,2,4] [--threads-per-shard T] [--address ADDR] [--single]

Each run goes through the launcher's own code path (`habitat_ray.cli.launch`): submit, wait, ship the shard
folders back, `habitat merge`. Wall time is the driver's, submit to merged report; person-days come from the merged
manifest.json. Per shard: its task's wall seconds and the peak RSS of its habitat process (wait4 rusage, measured
in the task). Without --address a local Ray is started in this process (all the machine's CPUs).
--single adds a plain `habitat run` (all cores) for comparison.

Importable: `bench(...)` returns the rows and `format_table(rows)` renders them (e.g. from a make target).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # habitat_ray without `pip install`

from habitat_ray import cli  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SCENARIO = REPO / "Scenarios" / "premium-price-test.yaml"


def bench(habitat: str, scenario: Path = DEFAULT_SCENARIO, people: int = 1000, days: int = 60,
          replications: int = 2, shards: list[int] = (1, 2, 4), threads_per_shard: int = 1,
          address: str | None = None, single: bool = False) -> list[dict]:
    """Run the scenario once per shard count (and once as a plain `habitat run` with `single`).

    Returns one dict per run: mode, shards, wall_seconds, merge_seconds, person_days, person_days_per_second,
    and `per_shard` (a list of habitat_ray.cli.ShardStats; empty for the single run).
    """
    ray = cli.import_ray()
    habitat = os.path.abspath(habitat)
    passthrough = ["--people", str(people), "--days", str(days), "--replications", str(replications)]
    text = Path(scenario).read_text(encoding="utf-8")
    rows = []
    with tempfile.TemporaryDirectory(prefix="habitat-bench-") as tmp:
        if single:
            out = Path(tmp) / "single"
            started = time.monotonic()
            subprocess.run([habitat, "run", str(scenario), *passthrough, "--out", str(out), "--progress", "never"],
                           check=True, stdout=subprocess.DEVNULL)
            wall = time.monotonic() - started
            pd = int(json.loads((out / "manifest.json").read_text())["person_days"])
            rows.append({"mode": "habitat run", "shards": 1, "wall_seconds": wall, "merge_seconds": 0.0,
                         "person_days": pd, "person_days_per_second": pd / wall, "per_shard": []})
        started_here = not ray.is_initialized()
        if started_here:
            cli.connect(ray, address, {"py_modules": [str(Path(cli.habitat_ray.__file__).parent)]})
        try:
            for n in shards:
                plan = cli.Plan(scenario=Path(scenario), scenario_text=text, shards=n, out=Path(tmp) / f"report-{n}",
                                habitat=habitat, worker_habitat=habitat, threads=threads_per_shard,
                                passthrough=passthrough, progress="never", show_summary=False)
                outcome = cli.launch(plan)
                pd = outcome.person_days
                rows.append({"mode": "ray shards", "shards": n, "wall_seconds": outcome.wall_seconds,
                             "merge_seconds": outcome.merge_seconds, "person_days": pd,
                             "person_days_per_second": pd / outcome.wall_seconds, "per_shard": outcome.shards})
        finally:
            if started_here:
                ray.shutdown()
    return rows


def format_table(rows: list[dict]) -> str:
    """A summary table (one line per run) followed by a per-shard table for each Ray run."""
    lines = [f"{'mode':<12} {'shards':>6} {'wall s':>8} {'merge s':>8} {'person-days':>12} {'person-days/s':>14} "
             f"{'max RSS MiB':>12}"]
    for r in rows:
        rss = max((s.max_rss_kib for s in r["per_shard"]), default=0) / 1024
        lines.append(f"{r['mode']:<12} {r['shards']:>6} {r['wall_seconds']:>8.2f} {r['merge_seconds']:>8.2f} "
                     f"{r['person_days']:>12} {r['person_days_per_second']:>14.0f} "
                     f"{(f'{rss:.0f}' if rss else '-'):>12}")
    for r in rows:
        if not r["per_shard"]:
            continue
        lines += ["", f"{r['shards']} shard(s):", f"  {'shard':>7} {'seconds':>8} {'peak RSS MiB':>13} {'attempt':>8}  node"]
        for s in r["per_shard"]:
            lines.append(f"  {s.index:>3}/{r['shards']:<3} {s.seconds:>8.2f} {s.max_rss_kib / 1024:>13.1f} "
                         f"{s.attempt:>8}  {s.node}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line: run `bench` and print `format_table`."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("habitat", help="habitat binary")
    p.add_argument("--scenario", type=Path, default=DEFAULT_SCENARIO)
    p.add_argument("--people", type=int, default=1000)
    p.add_argument("--days", type=int, default=60)
    p.add_argument("--replications", type=int, default=2)
    p.add_argument("--shards", default="1,2,4", help="comma-separated shard counts (default 1,2,4)")
    p.add_argument("--threads-per-shard", type=int, default=1)
    p.add_argument("--address", help="Ray address (default: $RAY_ADDRESS, a local `ray start`, else in-process)")
    p.add_argument("--single", action="store_true", help="also time a plain `habitat run` (all cores)")
    a = p.parse_args(argv)
    try:
        shards = [int(x) for x in a.shards.split(",") if x.strip()]
        if not shards or min(shards) < 1:
            raise ValueError
    except ValueError:
        p.error(f"--shards: expected comma-separated counts >= 1, got {a.shards!r}")
    try:
        rows = bench(a.habitat, a.scenario, a.people, a.days, a.replications, shards, a.threads_per_shard,
                     a.address, a.single)
    except cli.LaunchError as error:
        print(f"bench_scale: error: {error}", file=sys.stderr)
        return error.code
    print(format_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
