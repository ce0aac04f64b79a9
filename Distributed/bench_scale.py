#!/usr/bin/env python3
"""Person-days per second of one scenario run as Ray shards (habitat-ray), for one or more shard counts.

    python3 Distributed/bench_scale.py HABITAT_BINARY [--scenario PATH] [--people P --days D --replications R]
                                      [--shards 1,2,4] [--threads-per-shard T] [--address ADDR] [--single]
                                      [--single-threads 1,2] [--sensitivity "DESIGN OPTIONS"]

Each run goes through the launcher's own code path (`habitat_ray.cli.launch`): submit, wait, ship the shard
folders back, `habitat merge`. Wall time is the driver's, submit to merged report; person-days come from the merged
manifest.json. Per shard: its task's wall seconds and the peak RSS of its habitat process (wait4 rusage, measured
in the task). Without --address a local Ray is started in this process (all the machine's CPUs).
--single adds a plain `habitat run` (all cores; --single-threads T,… one per thread count) for comparison.
--sensitivity "--unpinned --samples 4" measures a sensitivity design instead (`habitat-ray sensitivity`, and
`habitat sensitivity` for --single): design points per second, and each shard's habitat CPU seconds.

Importable: `bench(...)` returns the rows and `format_table(rows)` renders them (e.g. from a make target).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # habitat_ray without `pip install`

from habitat_ray import cli  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SCENARIO = REPO / "Scenarios" / "premium-price-test.yaml"


def design_points(folder: Path) -> int:
    """The design points in a sensitivity analysis folder (rows of sensitivity-design.csv)."""
    return len((folder / "sensitivity-design.csv").read_text().splitlines()) - 1


def bench(habitat: str, scenario: Path = DEFAULT_SCENARIO, people: int = 1000, days: int = 60,
          replications: int = 2, shards: list[int] = (1, 2, 4), threads_per_shard: int = 1,
          address: str | None = None, single: bool = False, single_threads: list[int] | None = None,
          sensitivity: list[str] | None = None) -> list[dict]:
    """Run the scenario once per shard count (and once as a plain `habitat run` with `single`, once per
    `single_threads` count if given).

    With `sensitivity` (habitat sensitivity's design options) the runs are of that design: `habitat-ray
    sensitivity` and `habitat sensitivity`, and the rows also hold `points` and `points_per_second`.

    Returns one dict per run: mode, shards, threads (the single runs'), wall_seconds, merge_seconds, person_days,
    person_days_per_second (0 for a design: its manifest counts none), cpu_seconds (the habitat processes'), and
    `per_shard` (a list of habitat_ray.cli.ShardStats; empty for the single run).
    """
    ray = cli.import_ray()
    habitat = os.path.abspath(habitat)
    passthrough = ["--people", str(people), "--days", str(days), "--replications", str(replications)]
    command = "run" if sensitivity is None else "sensitivity"
    design = list(sensitivity or [])
    text = Path(scenario).read_text(encoding="utf-8")
    rows = []

    def measures(out: Path, wall: float) -> dict:
        pd = int(json.loads((out / "manifest.json").read_text())["person_days"])
        row = {"wall_seconds": wall, "person_days": pd, "person_days_per_second": pd / wall}
        if sensitivity is not None:
            row["points"] = design_points(out)
            row["points_per_second"] = row["points"] / wall
        return row

    with tempfile.TemporaryDirectory(prefix="habitat-bench-") as tmp:
        for threads in (single_threads or [None]) if single else []:
            out = Path(tmp) / f"single-{threads}"
            threading = [] if threads is None else ["--threads", str(threads)]
            before = os.times()
            started = time.monotonic()
            subprocess.run([habitat, command, str(scenario), *passthrough, *design, *threading, "--out", str(out),
                            "--progress", "never"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wall = time.monotonic() - started
            after = os.times()
            cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
            rows.append({"mode": f"habitat {command}", "shards": 1, "threads": threads, "merge_seconds": 0.0,
                         "cpu_seconds": cpu, **measures(out, wall), "per_shard": []})
        started_here = not ray.is_initialized()
        if started_here:
            cli.connect(ray, address, {"py_modules": [str(Path(cli.habitat_ray.__file__).parent)]})
        try:
            for n in shards:
                plan = cli.Plan(scenario=Path(scenario), scenario_text=text, shards=n, out=Path(tmp) / f"report-{n}",
                                habitat=habitat, worker_habitat=habitat, threads=threads_per_shard,
                                passthrough=passthrough + design, progress="never", show_summary=False,
                                command=command)
                outcome = cli.launch(plan)
                rows.append({"mode": "ray shards", "shards": n, "threads": threads_per_shard,
                             "merge_seconds": outcome.merge_seconds,
                             "cpu_seconds": sum(s.cpu_seconds for s in outcome.shards),
                             **measures(outcome.out, outcome.wall_seconds), "per_shard": outcome.shards})
        finally:
            if started_here:
                ray.shutdown()
    return rows


def format_table(rows: list[dict]) -> str:
    """A summary table (one line per run) followed by a per-shard table for each Ray run."""
    design = any("points" in r for r in rows)
    rate = f"{'points':>7} {'points/s':>9} {'points/CPU-s':>13}" if design else f"{'person-days':>12} {'person-days/s':>14}"
    lines = [f"{'mode':<20} {'shards':>6} {'threads':>7} {'wall s':>8} {'merge s':>8} {rate} {'CPU s':>8} "
             f"{'max RSS MiB':>12}"]
    for r in rows:
        rss = max((s.max_rss_kib for s in r["per_shard"]), default=0) / 1024
        threads = "all" if r.get("threads") is None else str(r["threads"])
        cpu = r.get("cpu_seconds") or 0.0
        if design:
            per_cpu = f"{r['points'] / cpu:.3f}" if cpu else "-"
            rate = f"{r['points']:>7} {r['points_per_second']:>9.3f} {per_cpu:>13}"
        else:
            rate = f"{r['person_days']:>12} {r['person_days_per_second']:>14.0f}"
        lines.append(f"{r['mode']:<20} {r['shards']:>6} {threads:>7} {r['wall_seconds']:>8.2f} "
                     f"{r['merge_seconds']:>8.2f} {rate} {cpu:>8.1f} {(f'{rss:.0f}' if rss else '-'):>12}")
    for r in rows:
        if not r["per_shard"]:
            continue
        lines += ["", f"{r['shards']} shard(s):",
                  f"  {'shard':>7} {'seconds':>8} {'CPU s':>8} {'peak RSS MiB':>13} {'attempt':>8}  node"]
        for s in r["per_shard"]:
            lines.append(f"  {s.index:>3}/{r['shards']:<3} {s.seconds:>8.2f} {s.cpu_seconds:>8.2f} "
                         f"{s.max_rss_kib / 1024:>13.1f} {s.attempt:>8}  {s.node}")
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
    p.add_argument("--single-threads", help="with --single: comma-separated --threads counts, one run each")
    p.add_argument("--sensitivity", metavar="OPTIONS",
                   help="measure this sensitivity design instead (habitat sensitivity's design options, one string)")
    a = p.parse_args(argv)

    def counts(text: str, option: str) -> list[int]:
        try:
            values = [int(x) for x in text.split(",") if x.strip()]
            if not values or min(values) < 1:
                raise ValueError
        except ValueError:
            p.error(f"{option}: expected comma-separated counts >= 1, got {text!r}")
        return values

    shards = counts(a.shards, "--shards")
    single_threads = counts(a.single_threads, "--single-threads") if a.single_threads else None
    try:
        rows = bench(a.habitat, a.scenario, a.people, a.days, a.replications, shards, a.threads_per_shard,
                     a.address, a.single, single_threads, shlex.split(a.sensitivity) if a.sensitivity else None)
    except cli.LaunchError as error:
        print(f"bench_scale: error: {error}", file=sys.stderr)
        return error.code
    print(format_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
