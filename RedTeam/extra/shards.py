#!/usr/bin/env python3
"""Damaged and mismatched shard folders fed to `habitat merge`, and `run --shard` misuse.

    RedTeam/extra/shards.py HABITAT [FILTER]

In a sandbox a copy of Scenarios/premium-price-test.yaml is run as 3 shards (`run --shard K/3 --people 60 --days 7
--replications 2`). A control merges them untouched (exit 0). Each case damages a fresh copy of shard 2 (or swaps
it for something else) and merges; it must end with exit 2, a message naming the damaged folder, nothing written to
--out, no crash, no library internals in the message, within TIMEOUT and 1 GB.
"""
import json
import os
import shutil
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rt  # noqa: E402

H, FILTER = rt.habitat_from_argv("shards.py HABITAT [FILTER]")
suite = rt.Suite("damaged shard folders (merge, run --shard)", FILTER)
RSS = min(rt.RSS_MB, 1024)
SCEN = "premium-price-test.yaml"
SIZE = ["--people", "60", "--days", "7", "--replications", "2", "--progress", "never", "--threads", "1"]

sb = rt.Sandbox("shards")
cwd, GOOD = rt.good_shards(sb, suite, H, SCEN, SIZE)
STATE = "shard-state.jsonl"
n = 0


def copy():
    global n
    n += 1
    d = f"damaged-{n:02d}"
    shutil.copytree(os.path.join(cwd, GOOD[1]), os.path.join(cwd, d), symlinks=True)
    return d


def path(d, *f):
    return os.path.join(cwd, d, *f)


def lines(d):
    with open(path(d, STATE), "rb") as fh:
        return fh.read().split(b"\n")


def put(d, f, data):
    rt.replace_file(path(d, f), data)


def edit_lines(fn):
    return lambda d: put(d, STATE, b"\n".join(fn(lines(d))))


def edit_header(fn):
    def g(ls):
        h = json.loads(ls[0])
        fn(h)
        return [json.dumps(h).encode()] + ls[1:]
    return edit_lines(g)


def edit_manifest(fn):
    def g(d):
        m = json.loads(open(path(d, "manifest.json")).read())
        fn(m)
        put(d, "manifest.json", json.dumps(m, indent=2))
    return g


def replace_in_record(old, new, record=1):
    def g(ls):
        assert old.encode() in ls[record], old
        ls[record] = ls[record].replace(old.encode(), new.encode(), 1)
        return ls
    return edit_lines(g)


def symlink_state(target):
    def g(d):
        os.remove(path(d, STATE))
        os.symlink(target, path(d, STATE))
    return g


def folder_state(d):
    os.remove(path(d, STATE))
    os.makedirs(path(d, STATE, "inner"))


CASES = [
    ("state-truncated-mid-record", edit_lines(lambda ls: [ls[0], ls[1][: len(ls[1]) // 2]])),
    ("state-last-record-missing", edit_lines(lambda ls: [l for l in ls if l][:-1] + [b""])),
    ("state-header-only", edit_lines(lambda ls: [ls[0], b""])),
    ("state-empty", lambda d: put(d, STATE, b"")),
    ("state-garbage", lambda d: put(d, STATE, b"not json\n{\n")),
    ("state-binary", lambda d: put(d, STATE, bytes(range(256)) * 64)),
    ("state-extra-record", edit_lines(lambda ls: [l for l in ls if l] + [ls[1], b""])),
    ("state-records-swapped", edit_lines(lambda ls: [ls[0], ls[2], ls[1]] + ls[3:])),
    ("state-format-version-99", edit_header(lambda h: h.update(format_version=99))),
    ("state-format-other", edit_header(lambda h: h.update(format="something-else"))),
    ("state-header-shard-5", edit_header(lambda h: h["shard"].update(index=5))),
    ("state-header-block-shifted", edit_header(lambda h: h["arms"][0].update({"from": h["arms"][0]["from"] + 1}))),
    ("state-header-installs-2e9", edit_header(lambda h: [a.update(installs=2_000_000_000) for a in h["arms"]])),
    ("state-record-people-negative", replace_in_record('"people":20', '"people":-5')),
    ("state-record-people-1e400", replace_in_record('"people":20', '"people":1e400')),
    ("state-record-arm-99", replace_in_record('"arm":0', '"arm":99')),
    ("state-record-mrr-edited", replace_in_record('"mrr_at_end":{"micros":', '"mrr_at_end":{"micros":1')),
    ("state-record-funnel-edited", replace_in_record('"funnel":{', '"funnel":{"people":7,', record=2)),
    ("state-record-histogram-bin-outside", replace_in_record('"bins":[[', '"bins":[[999999,1],[')),
    ("state-record-sum-not-integer", replace_in_record('"sum":"', '"sum":"x')),
    ("state-is-a-folder", folder_state),
    ("state-symlink-dev-zero", symlink_state("/dev/zero")),
    ("state-missing", lambda d: os.remove(path(d, STATE))),
    ("manifest-kind-report", edit_manifest(lambda m: m.update(kind="report"))),
    ("manifest-no-shard", edit_manifest(lambda m: m.pop("shard"))),
    ("manifest-shard-count-4", edit_manifest(lambda m: m["shard"].update(count=4))),
    ("manifest-hash-other", edit_manifest(lambda m: m.update(scenario_hash="0000000000000000"))),
    ("manifest-truncated", lambda d: put(d, "manifest.json", open(path(d, "manifest.json")).read()[:200])),
    ("manifest-missing", lambda d: os.remove(path(d, "manifest.json"))),
]


def merge(second, tag):
    return rt.merge_with(sb, H, cwd, GOOD, second, tag, RSS)


if suite.wants("control-merge-untouched"):
    r, out = merge(GOOD[1], "control")
    p = rt.common_problems(r, {0})
    if r.rc == 0 and not os.path.isfile(os.path.join(out, "kpis.csv")):
        p.append("no kpis.csv")
    suite.record("control-merge-untouched", p, f"exit {r.rc}")

for name, damage in CASES:
    if not suite.wants(name):
        continue
    d = copy()
    damage(d)
    r, out = merge(d, name)
    p = rt.merge_refused_problems(r, out, cwd, (d,))
    suite.record(name, p, f"exit {r.rc}: {r.first_err}")
    shutil.rmtree(os.path.join(cwd, d), ignore_errors=True)

# Where merge and run --shard may write.
OUTS = [
    ("merge-out-onto-a-shard", lambda: [H, "merge"] + GOOD + ["--out", GOOD[0]], "a shard folder"),
    ("merge-out-cwd", lambda: [H, "merge"] + GOOD + ["--out", "."], "working directory"),
    ("run-shard-onto-a-report", lambda: [H, "run", SCEN, "--shard", "1/3", "--out", "out-control"] + SIZE, "a run report"),
    ("run-shard-0-of-3", lambda: [H, "run", SCEN, "--shard", "0/3", "--out", "s"] + SIZE, "--shard"),
    ("run-shard-huge", lambda: [H, "run", SCEN, "--shard", "1/99999999999999999999", "--out", "s"] + SIZE, "--shard"),
    ("merge-no-folders", lambda: [H, "merge", "--out", "m"], "shard"),
]
for name, cmd, hint in OUTS:
    if not suite.wants(name):
        continue
    before = sb.snapshot()
    r = sb.run(cmd(), cwd=cwd, rss_mb=RSS, name=name)
    p = rt.refusal_problems(r, {2}, sb, before)
    if r.rc == 2 and hint not in r.err:
        p.append(f"the message does not say {hint!r}: {r.first_err!r}")
    suite.record(name, p, f"exit {r.rc}: {r.first_err}")

lost = sb.canaries_intact()
if lost:
    suite.record("canaries", ["lost: " + " ".join(lost)])
sb.cleanup()
suite.finish()
