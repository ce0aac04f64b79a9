#!/usr/bin/env python3
"""Usage errors: bad flag values, unknown flags and subcommands, missing arguments.

    RedTeam/extra/usage.py HABITAT [FILTER]

Each command runs in a sandbox (canaries, a small scenario s.yaml, a small finished run A/ and a baseline bl/ in the
working directory) and must exit 2 (the documented status for bad usage, not ArgumentParser's 64) with a
message on stderr, quickly, without crashing and without writing anything. The `huge-` cases pass a 100 000-character
argument (a value, a flag, a path, a subcommand): stderr must also stay under 2 KB (issue 30).
"""
import os
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rt  # noqa: E402

H, FILTER = rt.habitat_from_argv("usage.py HABITAT [FILTER]")
suite = rt.Suite("usage errors (exit 2 and a message)", FILTER)
S = "s.yaml"
CASES = [
    ("run-people-minus-one", ["run", "--people", "-1"]),
    ("run-people-equals-minus-one", ["run", "--people=-1"]),
    ("run-people-word", ["run", "--people", "abc"]),
    ("run-people-exponent", ["run", "--people", "1e3"]),
    ("run-people-zero", ["run", S, "--people", "0"]),
    ("run-people-huge", ["run", S, "--people", "99999999999999999999"]),
    ("run-days-negative", ["run", S, "--days", "-3"]),
    ("run-days-fraction", ["run", S, "--days", "2.5"]),
    ("run-replications-word", ["run", S, "--replications", "two"]),
    ("run-replications-negative", ["run", S, "--replications", "-4"]),
    ("run-seed-negative", ["run", S, "--seed", "-5"]),
    ("run-seed-word", ["run", S, "--seed", "lucky"]),
    ("run-threads-negative", ["run", S, "--threads", "-2"]),
    ("run-progress-unknown", ["run", S, "--progress", "sometimes"]),
    ("run-unknown-flag", ["run", S, "--frobnicate"]),
    ("run-unknown-short-flag", ["run", S, "-z"]),
    ("run-out-without-value", ["run", S, "--out"]),
    ("run-two-scenarios", ["run", S, S]),
    ("trace-person-minus-one", ["trace", S, "--person", "-1"]),
    ("trace-person-word", ["trace", S, "--person", "abc"]),
    ("trace-person-missing", ["trace", S]),
    ("trace-replication-negative", ["trace", S, "--person", "0", "--replication", "-1"]),
    ("trace-unknown-flag", ["trace", S, "--person", "0", "--colour"]),
    ("validate-unknown-flag", ["validate", S, "--strict-mode"]),
    ("compare-no-arguments", ["compare"]),
    ("compare-unknown-flag", ["compare", "A", "--arm-c", "x"]),
    ("check-without-baseline", ["check", S]),
    ("check-record-without-reason", ["check", S, "--baseline", "bl", "--record"]),
    ("check-people-minus-one", ["check", S, "--baseline", "bl", "--people", "-1"]),
    ("unknown-subcommand", ["frobnicate"]),
    ("list-unknown-flag", ["list", "--all-the-things"]),
]
# Issue 30: a 100 000-character argument is echoed cut — these must also keep stderr under 2 KB.
HUGE, DIGITS = "k" * 100_000, "9" * 100_000
HUGE_CASES = [
    ("huge-run-progress", ["run", S, "--progress", HUGE]),
    ("huge-run-people-digits", ["run", S, "--people", DIGITS]),
    ("huge-run-threads", ["run", S, "--threads", HUGE]),
    ("huge-run-shard", ["run", S, "--shard", HUGE]),
    ("huge-run-unknown-flag", ["run", S, "--" + HUGE]),
    ("huge-run-set-key", ["run", S, "--set", HUGE + "=1"]),
    ("huge-run-set-value", ["run", S, "--set", "horizon_days=" + HUGE]),
    ("huge-run-scenario-path", ["run", HUGE]),
    ("huge-run-out", ["run", S, "--out", HUGE]),
    ("huge-trace-person-digits", ["trace", S, "--person", DIGITS]),
    ("huge-trace-arm", ["trace", S, "--person", "0", "--arm", HUGE]),
    ("huge-compare-folders", ["compare", HUGE, HUGE]),
    ("huge-compare-arm", ["compare", "A", "A", "--arm-b", HUGE, "--out", "c.csv"]),
    ("huge-check-baseline", ["check", S, "--baseline", HUGE]),
    ("huge-calibrate-fit", ["calibrate", S, "--fit", HUGE]),
    ("huge-calibrate-budget-digits", ["calibrate", S, "--budget", DIGITS]),
    ("huge-list-format", ["list", "--format", HUGE]),
    ("huge-unknown-subcommand", [HUGE]),
]

sb = rt.Sandbox("usage")
cwd = sb.mkdir("work")
sb.canary("", "work")
sb.write("work/s.yaml", "name: s\nhorizon_days: 5\nreplications: 1\npopulation:\n  installs: 20\n")
r = sb.run([H, "run", S, "--progress", "never", "--out", "A"], cwd=cwd)
r2 = sb.run([H, "check", S, "--baseline", "bl", "--record", "--reason", "usage"], cwd=cwd)
if r.rc != 0 or r2.rc != 0:
    suite.record("setup", [f"setup run or record failed: {r.brief()} / {r2.brief()}"])
for name, args in CASES + HUGE_CASES:
    if not suite.wants(name):
        continue
    before = sb.snapshot()
    res = sb.run([H] + args, cwd=cwd, timeout=min(rt.TIMEOUT, 20))
    problems = rt.refusal_problems(res, {2}, sb, before)
    if name.startswith("huge-") and len(res.err.encode()) > 2048:
        problems.append(f"stderr is {len(res.err.encode())} bytes: the argument is echoed whole")
    suite.record(name, problems, res.first_err)
sb.cleanup()
suite.finish()
