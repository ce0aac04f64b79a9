"""Checks that the C and SimPy references follow the same trajectory for the same seed.

    python3 Benchmarks/check_trajectories.py PATH/TO/peer_c      (make bench-check builds it and runs this)

1. The random stream: peer_c's MT19937 must give exactly the doubles of Python's random.Random
   (random() and expovariate()) for several seeds, including 0 and seeds of more than 32 bits.
   Needs only Python.
2. The trajectories: mm1 with 2000 customers and agents with 200 agents x 2 days, for two seeds;
   event counts and every summary statistic must be equal, floating-point ones to the last bit.
   Needs SimPy; without it this part is skipped with a message and the check still passes.

Exits 1 on any difference.
"""
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = (42, 7)
RUNS = [
    (["mm1", "2000"], ["events", "arrivals", "departures", "end_time", "Wq", "W"]),
    (["agents", "200", "2"],
     ["events", "urges", "resists", "gives", "earns", "rollovers", "daily_sumsq", "resets"]),
]


def fields(text):
    return dict(pair.split("=", 1) for pair in text.split())


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        sys.exit(f"check_trajectories: {' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def check_stream(peer_c):
    draws = 2000  # enough to cross a regeneration of the 624-word state
    for seed in (0, 1, 42, 2**32 + 5, 2**63 - 2):
        got = run([peer_c, "draws", str(seed), str(draws)]).split("\n")
        rng = random.Random(seed)
        for k in range(draws):
            want = ("random", rng.random()) if k % 2 == 0 else ("expovariate", rng.expovariate(0.9))
            name, value = got[k].split()
            if name != want[0] or float(value) != want[1]:
                print(f"FAIL stream seed={seed} draw {k}: C {got[k]!r}, Python {want[0]} {want[1]!r}")
                return False
    print(f"ok   random stream: peer_c draws = random.Random for 5 seeds x {draws} draws")
    return True


def check_trajectories(peer_c):
    ok = True
    for args, keys in RUNS:
        for seed in SEEDS:
            c = fields(run([peer_c, *args, str(seed)]))
            py = fields(run([sys.executable, os.path.join(HERE, "peer_simpy.py"), *args, str(seed)]))
            differ = [k for k in keys if c.get(k) is None or c.get(k) != py.get(k)]
            shown = " ".join(f"{k}={c.get(k)}" for k in keys)
            if differ:
                ok = False
                print(f"FAIL {' '.join(args)} seed={seed}: " + ", ".join(f"{k}: C {c.get(k)} vs SimPy {py.get(k)}" for k in differ))
            else:
                print(f"ok   {' '.join(args)} seed={seed}: {shown}")
    return ok


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    peer_c = sys.argv[1]
    ok = check_stream(peer_c)
    try:
        import simpy
    except ImportError:
        print("check_trajectories: SimPy not installed (pip install simpy==4.1.2) - skipping the C/SimPy trajectory comparison")
        sys.exit(0 if ok else 1)
    if simpy.__version__ != "4.1.2":
        print(f"check_trajectories: note: SimPy {simpy.__version__}, the references are written for 4.1.2")
    ok = check_trajectories(peer_c) and ok
    print("check_trajectories: " + ("C and SimPy agree" if ok else "C and SimPy DIFFER"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
