#!/usr/bin/env python3
"""Messages: for a sample of bad inputs across every command, the error must be Habitat's own words.

    RedTeam/extra/messages.py HABITAT [FILTER]

Each command must fail (exit 1 or 2, no crash, no hang) with a message on stderr that contains none of
NSCocoaErrorDomain, "Error Domain=", yaml_ (libyaml API names), DecodingError or Backtracing.
All inputs live in one sandbox (mktemp -d); it is checked afterwards to have changed only where a command was
expected to write nothing at all (nothing may change).
"""
import json
import os
import shutil
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rt  # noqa: E402

H, FILTER = rt.habitat_from_argv("messages.py HABITAT [FILTER]")
suite = rt.Suite("messages (no library internals on stderr)", FILTER)
sb = rt.Sandbox("messages")
cwd = sb.mkdir("work")
sb.canary("", "work")
W = lambda rel, data, mode="w": sb.write("work/" + rel, data, mode)  # noqa: E731
GOODS = "name: g\nhorizon_days: 5\nreplications: 1\npopulation:\n  installs: 20\n"
W("good.yaml", GOODS)
W("binary.yaml", bytes(range(256)) * 8, "wb")
W("latin1.yaml", "name: caf\xe9\nhorizon_days: 5\n".encode("latin-1"), "wb")
W("utf16-nobom.yaml", GOODS.encode("utf-16-le"), "wb")
W("deep.yaml", "name: d\noutputs:\n  trace_people: " + "[" * 5000 + "]" * 5000 + "\n")
W("tabs.yaml", "name: t\npopulation:\n\tinstalls: 5\n")
W("unclosed.yaml", "name: u\npopulation: {installs: 5\n")
W("alias.yaml", "name: a\npopulation:\n  installs: *nowhere\n")
W("csv-garbage.yaml", GOODS + "  acquisition:\n    csv: garbage.csv\n")
W("garbage.csv", b"\xff\xfe\x00\x01" * 300, "wb")
W("csv-dir.yaml", GOODS + "  acquisition:\n    csv: somedir\n")
os.makedirs(os.path.join(cwd, "somedir"))
os.mkfifo(os.path.join(cwd, "fifo.yaml"))
W("notes.txt", "notes\n")
W("tol-binary.csv", b"\x00\x01\x02" * 100, "wb")
os.makedirs(os.path.join(cwd, "emptydir"))

ok = [sb.run([H, "run", "good.yaml", "--progress", "never", "--out", "A"], cwd=cwd).rc,
      sb.run([H, "check", "good.yaml", "--baseline", "BL", "--record", "--reason", "m"], cwd=cwd).rc]
if any(ok):
    suite.record("setup", [f"setup runs failed: {ok}"])


def put(folder, name, text):
    with open(os.path.join(folder, name), "w") as f:
        f.write(text)


def edit_json(folder, name, **kv):
    with open(os.path.join(folder, name)) as f:
        data = json.load(f)
    data.update(kv)
    put(folder, name, json.dumps(data))


DAMAGED = [("A-bad-manifest", "A", lambda p: put(p, "manifest.json", '{"tool": "habitat", "files": 3')),
           ("A-manifest-types", "A", lambda p: put(p, "manifest.json", json.dumps({"tool": "habitat", "seed": "x", "replications": [1]}))),
           ("BL-empty-manifest", "BL", lambda p: put(p, "manifest.json", "{}")),
           ("BL-seed-negative", "BL", lambda p: edit_json(p, "baseline.json", seed=-1)),
           ("BL-people-text", "BL", lambda p: edit_json(p, "baseline.json", people="many"))]
for d, src, fix in DAMAGED:
    try:
        shutil.copytree(os.path.join(cwd, src), os.path.join(cwd, d))
        fix(os.path.join(cwd, d))
    except (OSError, ValueError) as e:
        suite.record(f"setup-{d}", [f"could not prepare {d}: {e}"])

CASES = [
    ("validate-a-folder", ["validate", "somedir"]),
    ("validate-missing-file", ["validate", "no-such.yaml"]),
    ("validate-dev-null", ["validate", "/dev/null"]),
    ("validate-dev-zero", ["validate", "/dev/zero"]),
    ("validate-fifo", ["validate", "fifo.yaml"]),
    ("validate-binary", ["validate", "binary.yaml"]),
    ("validate-latin1", ["validate", "latin1.yaml"]),
    ("validate-utf16-without-bom", ["validate", "utf16-nobom.yaml"]),
    ("validate-deep-nesting", ["validate", "deep.yaml"]),
    ("validate-tab-indent", ["validate", "tabs.yaml"]),
    ("validate-unclosed-flow-map", ["validate", "unclosed.yaml"]),
    ("validate-undefined-alias", ["validate", "alias.yaml"]),
    ("run-acquisition-csv-garbage", ["run", "csv-garbage.yaml", "--progress", "never"]),
    ("run-acquisition-csv-folder", ["run", "csv-dir.yaml", "--progress", "never"]),
    ("run-out-below-a-regular-file", ["run", "good.yaml", "--progress", "never", "--out", "notes.txt/rep"]),
    ("run-out-in-proc", ["run", "good.yaml", "--progress", "never", "--out", "/proc/habitat-redteam-rep"]),
    ("trace-out-existing-folder", ["trace", "good.yaml", "--person", "0", "--out", "emptydir"]),
    ("trace-out-in-proc", ["trace", "good.yaml", "--person", "0", "--out", "/proc/habitat-redteam.csv"]),
    ("trace-out-below-a-regular-file", ["trace", "good.yaml", "--person", "0", "--out", "notes.txt/t.csv"]),
    ("trace-unknown-arm", ["trace", "good.yaml", "--person", "0", "--arm", "nope"]),
    ("compare-missing-folders", ["compare", "no-such-A", "no-such-B", "--out", "c1.csv"]),
    ("compare-empty-folder", ["compare", "emptydir", "A", "--out", "c2.csv"]),
    ("compare-truncated-manifest", ["compare", "A-bad-manifest", "A", "--out", "c3.csv"]),
    ("compare-manifest-wrong-types", ["compare", "A-manifest-types", "A", "--out", "c4.csv"]),
    ("compare-out-in-proc", ["compare", "A", "A", "--out", "/proc/habitat-redteam.csv"]),
    ("check-baseline-empty-manifest", ["check", "--baseline", "BL-empty-manifest"]),
    ("check-baseline-json-seed-negative", ["check", "--baseline", "BL-seed-negative"]),
    ("check-baseline-json-people-text", ["check", "--baseline", "BL-people-text"]),
    ("check-baseline-is-a-file", ["check", "--baseline", "notes.txt"]),
    ("check-tolerances-folder", ["check", "--baseline", "BL", "--tolerances", "somedir"]),
    ("check-tolerances-binary", ["check", "--baseline", "BL", "--tolerances", "tol-binary.csv"]),
    ("check-scenario-binary", ["check", "binary.yaml", "--baseline", "BL"]),
]
for name, args in CASES:
    if not suite.wants(name):
        continue
    before = sb.snapshot()
    res = sb.run([H] + args, cwd=cwd)
    problems = rt.refusal_problems(res, {1, 2}, sb, before)
    if res.forbidden():
        problems.append("library internals: " + ", ".join(res.forbidden()) + f" in {res.first_err!r}")
    suite.record(name, problems, res.first_err)
sb.cleanup()
suite.finish()
