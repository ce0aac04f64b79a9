#!/usr/bin/env python3
"""`make bench-scale`: how far Habitat scales on this machine, and what a launch-size forecast costs.

    python3 Benchmarks/scale.py HABITAT [--people P] [--days D] [--shards N] [--no-ray]

Measures, on the embedded Scroll Off baseline (one replication, one arm):
  1. person-days per second on 1 and on 2 threads (`habitat bench run --days D`),
  2. peak memory of one process at P/4 and at P people (flat in people: accumulators do not grow with people),
  3. the same population (Scenarios/scroll-off-baseline.yaml) as N Ray shards on a local Ray (`Distributed/bench_scale.py`: submit → shard tasks → `habitat
     merge`), with each worker's peak memory — skipped with a note when Ray is not installed,
and prints, from the measured one-thread throughput, what 1,000,000 people × 365 days costs in core-hours and how
long it takes on a 64-core cluster (ideal, and at the efficiency the Ray shards reached here). Figures are printed,
never asserted (wall times on a shared machine are noisy; `valgrind --tool=callgrind` counts instructions).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def bench_run(habitat: str, people: int, days: int, threads: int) -> dict[str, float]:
    """One `habitat bench run`, its key=value line as numbers."""
    out = subprocess.run([habitat, "bench", "run", "--people", str(people), "--days", str(days), "--threads", str(threads),
                          "--progress", "never"], check=True, capture_output=True, text=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("workload=run"))
    fields = dict(kv.split("=", 1) for kv in line.split())
    return {k: float(v) for k, v in fields.items() if k not in ("workload", "impl")}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("habitat")
    p.add_argument("--people", type=int, default=10_000)
    p.add_argument("--days", type=int, default=365)
    p.add_argument("--shards", type=int, default=2)
    p.add_argument("--no-ray", action="store_true", help="skip the Ray shards")
    a = p.parse_args(argv)
    h = str(Path(a.habitat).resolve())

    print(f"== single process: {a.people:,} people × {a.days} days (embedded Scroll Off baseline, 1 replication)")
    rows = {t: bench_run(h, a.people, a.days, t) for t in (1, 2)}
    for t, r in rows.items():
        print(f"  {t} thread{'s' if t > 1 else ' '}: {r['seconds']:7.1f} s  {r['people_x_days_per_s']:>9,.0f} people×days/s  "
              f"{r['person_days_per_s']:>9,.0f} simulated person-days/s  peak {r['peak_rss_mb']:.0f} MB")
    small = bench_run(h, max(1, a.people // 4), a.days, 1)
    print(f"  memory: {small['peak_rss_mb']:.0f} MB at {a.people // 4:,} people, {rows[1]['peak_rss_mb']:.0f} MB at {a.people:,} "
          "(one thread) — flat in people")

    per_core = rows[1]["people_x_days_per_s"]
    efficiency = None
    if not a.no_ray:
        sys.path.insert(0, str(REPO / "Distributed"))
        try:
            import bench_scale  # noqa: E402
            from habitat_ray import cli  # noqa: E402
            cli.import_ray()
        except (ImportError, SystemExit, Exception) as error:  # Ray missing: say so, measure the rest
            print(f"\n== Ray shards: skipped ({error}); install with: python3 -m pip install -r Distributed/requirements.txt")
        else:
            print(f"\n== Ray shards on this machine: {a.shards} shard(s) × 1 thread, local Ray, merge included")
            rs = bench_scale.bench(h, scenario=REPO / "Scenarios" / "scroll-off-baseline.yaml", people=a.people, days=a.days,
                                   replications=1, shards=[a.shards], threads_per_shard=1)
            print(bench_scale.format_table(rs))
            r = rs[-1]
            rate = a.people * a.days / r["wall_seconds"]
            efficiency = rate / (per_core * a.shards)
            print(f"  {rate:,.0f} people×days/s over {a.shards} shards: {efficiency:.0%} of {a.shards} × the one-thread rate")

    total = 1_000_000 * 365
    core_hours = total / per_core / 3600
    print("\n== 1,000,000 people × 365 days (one arm, one replication) from the one-thread rate "
          f"{per_core:,.0f} people×days/s:")
    print(f"  {total:,} people×days / {per_core:,.0f} per core-second / 3600 = {core_hours:.2f} core-hours")
    print(f"  on 64 cores, ideally: {core_hours / 64 * 60:.1f} minutes")
    if efficiency:
        print(f"  at the {efficiency:.0%} the Ray shards reached here: {core_hours / 64 / efficiency * 60:.1f} minutes")
    print(f"  on this machine (2 threads, {rows[2]['people_x_days_per_s']:,.0f} people×days/s): "
          f"{total / rows[2]['people_x_days_per_s'] / 3600:.1f} hours")
    return 0


if __name__ == "__main__":
    sys.exit(main())
