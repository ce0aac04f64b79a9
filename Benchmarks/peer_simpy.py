"""Habitat's SimPy reference for the two `habitat bench kernel` workloads (SimPy 4.1.2).

    python3 peer_simpy.py mm1 [customers=1000000] [seed=42]
    python3 peer_simpy.py agents [agents=100000] [days=30] [seed=42]

Written the way SimPy models are usually written: processes, a Resource for the server, and an
interrupt to restart a timer. Benchmarks/README.md defines the workloads. The random numbers come
from random.Random (MT19937) in exactly the order Benchmarks/peer_c.c draws them, so for one seed
both print the same trajectory; Benchmarks/check_trajectories.py verifies that.

Prints one line of key=value pairs starting with
`workload=... impl=simpy events=... seconds=... events_per_s=...`. `events` counts model events
(mm1: arrivals + departures; agents: urges + earns + rollovers), not SimPy's internal events.
Floating-point statistics have 17 significant digits, as in the C reference.

Copyright the Habitat authors. GPL-3.0-or-later (see COPYING).
"""
import random
import sys
import time

import simpy

# mm1
ARRIVAL_RATE = 0.9
SERVICE_RATE = 1.0

# agents (time in hours)
HOURS_PER_DAY = 24.0
URGE_RATE = 40.0 / 24.0  # per hour
EARN_EVERY = 1.0
RESIST_P = 0.3


def g17(x):
    return format(x, ".17g")


def line(pairs):
    return " ".join(f"{k}={v}" for k, v in pairs)


def mm1(customers, seed):
    """One server, Poisson arrivals, exponential service, FIFO, until `customers` have departed."""
    started = time.perf_counter()
    env = simpy.Environment()
    server = simpy.Resource(env, capacity=1)
    gaps = random.Random(2 * seed)  # interarrival gaps
    work = random.Random(2 * seed + 1)  # service times
    all_served = env.event()
    tally = {"arrived": 0, "departed": 0, "wq": 0.0, "w": 0.0}

    def customer():
        arrived = env.now
        with server.request() as turn:
            yield turn
            began = env.now
            yield env.timeout(work.expovariate(SERVICE_RATE))
        tally["departed"] += 1
        tally["wq"] += began - arrived
        tally["w"] += env.now - arrived
        if tally["departed"] == customers:
            all_served.succeed()

    def door():
        while True:
            yield env.timeout(gaps.expovariate(ARRIVAL_RATE))
            tally["arrived"] += 1
            env.process(customer())

    env.process(door())
    env.run(until=all_served)
    seconds = time.perf_counter() - started

    departed = tally["departed"]
    events = tally["arrived"] + departed
    wq, w = tally["wq"] / departed, tally["w"] / departed
    wq_th = (ARRIVAL_RATE / SERVICE_RATE) / (SERVICE_RATE - ARRIVAL_RATE)
    w_th = 1.0 / (SERVICE_RATE - ARRIVAL_RATE)
    print(line([
        ("workload", "mm1"), ("impl", "simpy"), ("events", events), ("seconds", f"{seconds:.6f}"),
        ("events_per_s", f"{events / seconds:.0f}"), ("N", customers), ("seed", seed),
        ("arrivals", tally["arrived"]), ("departures", departed), ("end_time", g17(env.now)),
        ("Wq", g17(wq)), ("W", g17(w)), ("Wq_th", f"{wq_th:.1f}"), ("W_th", f"{w_th:.1f}"),
        ("Wq_relerr", f"{(wq - wq_th) / wq_th:.5f}"), ("W_relerr", f"{(w - w_th) / w_th:.5f}"),
    ]))


class Agents:
    """`count` independent agents over `days` days, all drawing from one stream in time order."""

    def __init__(self, count, days, seed):
        self.env = simpy.Environment()
        self.rng = random.Random(seed)
        self.horizon = HOURS_PER_DAY * days
        self.urges = self.resists = self.gives = self.earns = self.rollovers = self.resets = 0
        self.daily_sumsq = 0
        self.urges_today = [0] * count
        env = self.env
        for agent in range(count):
            first_gap = self.rng.expovariate(URGE_RATE)
            earner = env.process(self.earn_timer())
            env.process(self.urge_stream(agent, first_gap, earner))
            env.process(self.day_clock(agent))

    def earn_timer(self):
        """Earns every hour; an interrupt (an urge) restarts the hour. Nothing runs past the horizon."""
        env = self.env
        while env.now + EARN_EVERY <= self.horizon:
            try:
                yield env.timeout(EARN_EVERY)
                self.earns += 1
            except simpy.Interrupt:
                pass

    def urge_stream(self, agent, gap, earner):
        env, rng = self.env, self.rng
        while env.now + gap <= self.horizon:
            yield env.timeout(gap)
            self.urges += 1
            self.urges_today[agent] += 1
            if rng.random() < RESIST_P:
                self.resists += 1
            else:
                self.gives += 1
            self.resets += 1
            if earner.is_alive:
                earner.interrupt()
            gap = rng.expovariate(URGE_RATE)

    def day_clock(self, agent):
        env = self.env
        while env.now + HOURS_PER_DAY <= self.horizon:
            yield env.timeout(HOURS_PER_DAY)
            self.rollovers += 1
            today = self.urges_today[agent]
            self.daily_sumsq += today * today
            self.urges_today[agent] = 0


def agents(count, days, seed):
    started = time.perf_counter()
    model = Agents(count, days, seed)
    model.env.run()
    seconds = time.perf_counter() - started
    m = model
    events = m.urges + m.earns + m.rollovers
    expected_urges = count * 40.0 * days
    print(line([
        ("workload", "agents"), ("impl", "simpy"), ("events", events), ("seconds", f"{seconds:.6f}"),
        ("events_per_s", f"{events / seconds:.0f}"), ("agents", count), ("days", days), ("seed", seed),
        ("urges", m.urges), ("resists", m.resists), ("gives", m.gives), ("earns", m.earns),
        ("rollovers", m.rollovers), ("daily_sumsq", m.daily_sumsq),
        ("resist_frac", f"{m.resists / m.urges if m.urges else 0.0:.5f}"),
        ("urges_relerr", f"{(m.urges - expected_urges) / expected_urges:.5f}"), ("resets", m.resets),
    ]))


def whole(text, name, lo, hi):
    try:
        v = int(text)
    except ValueError:
        v = None
    if v is None or not lo <= v <= hi:
        sys.exit(f"peer_simpy: {name} must be a whole number in {lo}..{hi} (got {text})")
    return v


SEED_MAX = 2**63 - 2  # the same limit as peer_c.c (2*seed + 1 fits in 64 bits)


def main(argv):
    what, rest = (argv[0], argv[1:]) if argv else ("", [])
    if what == "mm1" and len(rest) <= 2:
        n = whole(rest[0], "customers", 1, 10**9) if rest else 1_000_000
        mm1(n, whole(rest[1], "seed", 0, SEED_MAX) if len(rest) > 1 else 42)
    elif what == "agents" and len(rest) <= 3:
        a = whole(rest[0], "agents", 1, 2**29 - 1) if rest else 100_000
        d = whole(rest[1], "days", 1, 36500) if len(rest) > 1 else 30
        agents(a, d, whole(rest[2], "seed", 0, SEED_MAX) if len(rest) > 2 else 42)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
