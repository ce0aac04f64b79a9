#!/usr/bin/env python3
"""Habitat's event kernel against the plain-C reference on M/M/1, in interleaved pairs.

    python3 Benchmarks/kernel_pairs.py HABITAT PEER_C [--pairs 5] [--customers 1000000] [--seed 42]
                                       [--instructions] [--small 100000] [--large 300000]

Each pair runs `PEER_C mm1 N SEED` and then `HABITAT bench kernel --workload mm1 --customers N --seed SEED` on the
same machine, one after the other, and prints both rates (events/s as each program reports it: the timed part is
the model's run, not the process start) and their ratio Habitat ÷ C; then the median of the ratios, which is the
figure issue 41 holds at 0.8 or better. Interleaving puts a busy moment of a shared machine on both sides of a pair.

`--instructions` also counts instructions per event under callgrind, which does not depend on the machine's load:
each program runs at `--small` and `--large` customers, and the figure is the difference of the two totals over the
difference of their events, so process start-up (the Swift runtime's conformance look-ups, the dynamic loader)
cancels out. Habitat runs from a copy without debug information (valgrind 3.19 cannot read Swift 6.3's), in a fixed
environment as the speed gate runs it. Prints figures only; never fails on them (exit 0 unless a program fails).
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile


def fields(line):
    return dict(kv.split("=", 1) for kv in line.split() if "=" in kv)


def run(cmd, env=None):
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.exit(f"kernel_pairs: {' '.join(cmd)} exited {out.returncode}: {out.stderr.strip()[:500]}")
    return out


def c_cmd(peer, n, seed):
    return [peer, "mm1", str(n), str(seed)]


def habitat_cmd(habitat, n, seed):
    return [habitat, "bench", "kernel", "--workload", "mm1", "--customers", str(n), "--seed", str(seed)]


def rate(cmd):
    f = fields(run(cmd).stdout.strip().splitlines()[-1])
    return int(f["events"]), float(f["events_per_s"])


def instructions(cmd, events_of, tmp):
    """Total instructions of one run under callgrind and the run's events."""
    out_file = os.path.join(tmp, "cg.out")
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "SWIFT_DETERMINISTIC_HASHING": "1"}
    res = run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}"] + cmd, env=env)
    total = re.search(r"Collected : (\d+)", res.stderr)
    if not total:
        sys.exit(f"kernel_pairs: no instruction count from callgrind for {' '.join(cmd)}")
    os.remove(out_file)
    return int(total.group(1)), events_of(res.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("habitat")
    ap.add_argument("peer_c")
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--customers", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--instructions", action="store_true", help="also count instructions per event (callgrind)")
    ap.add_argument("--small", type=int, default=100_000)
    ap.add_argument("--large", type=int, default=300_000)
    a = ap.parse_args()
    for p in (a.habitat, a.peer_c):
        if not os.access(p, os.X_OK):
            sys.exit(f"kernel_pairs: {p} is not an executable file")

    print(f"mm1, {a.customers} customers, seed {a.seed}: {a.pairs} pairs, C then Habitat")
    print(f"{'pair':>4}  {'C events/s':>12}  {'Habitat events/s':>16}  {'Habitat/C':>9}")
    ratios, cs, hs = [], [], []
    for i in range(1, a.pairs + 1):
        _, c = rate(c_cmd(a.peer_c, a.customers, a.seed))
        _, h = rate(habitat_cmd(a.habitat, a.customers, a.seed))
        ratios.append(h / c)
        cs.append(c)
        hs.append(h)
        print(f"{i:>4}  {c:>12,.0f}  {h:>16,.0f}  {h / c:>9.3f}")
    print(f"median  {statistics.median(cs):>10,.0f}  {statistics.median(hs):>16,.0f}  {statistics.median(ratios):>9.3f}"
          f"   (ratios {min(ratios):.3f}-{max(ratios):.3f}; the medians of each column are taken separately)")

    if a.instructions:
        if not shutil.which("valgrind"):
            sys.exit("kernel_pairs: --instructions needs valgrind (make setup-test installs it)")
        last_events = lambda out: int(fields(out.strip().splitlines()[-1])["events"])
        with tempfile.TemporaryDirectory(prefix="kernel-pairs-") as tmp:
            stripped = os.path.join(tmp, "habitat")
            run(["strip", "--strip-debug", "-o", stripped, a.habitat])
            print(f"instructions per event (callgrind; ({a.large} − {a.small} customers), start-up cancelled):")
            per = {}
            for name, make in (("C", lambda n: c_cmd(os.path.abspath(a.peer_c), n, a.seed)),
                               ("Habitat", lambda n: habitat_cmd(stripped, n, a.seed))):
                i1, e1 = instructions(make(a.small), last_events, tmp)
                i2, e2 = instructions(make(a.large), last_events, tmp)
                per[name] = (i2 - i1) / (e2 - e1)
                print(f"  {name:<8} {per[name]:>7.1f}   ({i1:,} at {e1:,} events, {i2:,} at {e2:,})")
            print(f"  C/Habitat instructions: {per['C'] / per['Habitat']:.3f}")


if __name__ == "__main__":
    main()
