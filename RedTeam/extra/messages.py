#!/usr/bin/env python3
"""Messages: for a sample of bad inputs across every command, the error must be Habitat's own words.

    RedTeam/extra/messages.py HABITAT [FILTER]

Each command must fail (exit 1 or 2, no crash, no hang) with a message on stderr that contains none of
NSCocoaErrorDomain, "Error Domain=", yaml_ (libyaml API names), DecodingError or Backtracing.
All inputs live in one sandbox (mktemp -d); it is checked afterwards to have changed only where a command was
expected to write nothing at all (nothing may change).

The short-message cases (issue 30) must exit 2 with stderr under 2 KB and every line under 1 KB, and without
Foundation's "The operation could not be completed" or "permission" (the suite runs as root, where only a real EACCES may say so): calibrate --targets as `.`, a folder,
/dev/zero, a FIFO (must not hang), a missing, Latin-1, binary or empty file, a 3 KB path; 100 000-character --set
keys and values, scenario keys and names, --fit and --arm values, and 3 KB paths to validate, compare and check.
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
# Issue 30: calibrate --targets that are not a text file, and input too long to echo whole.
os.mkfifo(os.path.join(cwd, "targets-fifo.csv"))
W("targets-latin1.csv", "figure,low,high\nretention_d1,0.2,0.3 caf\xe9\n".encode("latin-1"), "wb")
W("targets-binary.csv", bytes(range(256)) * 4, "wb")
W("targets-empty.csv", "")
LONG = "k" * 100_000
W("long-key.yaml", GOODS + LONG + ": 1\n")
W("long-value.yaml", GOODS.replace("name: g", "name: " + LONG))
LONG_PATH = "/".join(["d" * 200] * 15) + "/s.yaml"  # 3 KB, each part within NAME_MAX, nothing there

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
# Exit 2, a short message (stderr under 2 KB, each line under 1 KB: echoed input is cut) and no "permission"
# unless it is one; calibrate is sized to refuse before any simulation.
CAL = ["calibrate", "--people", "10", "--days", "2", "--budget", "2", "--fit", "behavior.churn.base_hazard", "--out", "cal"]
SHORT_CASES = [
    ("calibrate-targets-dot", CAL + ["--targets", "."]),
    ("calibrate-targets-folder", CAL + ["--targets", "somedir"]),
    ("calibrate-targets-dev-zero", CAL + ["--targets", "/dev/zero"]),
    ("calibrate-targets-fifo", CAL + ["--targets", "targets-fifo.csv"]),
    ("calibrate-targets-missing", CAL + ["--targets", "no-such-targets.csv"]),
    ("calibrate-targets-latin1", CAL + ["--targets", "targets-latin1.csv"]),
    ("calibrate-targets-binary", CAL + ["--targets", "targets-binary.csv"]),
    ("calibrate-targets-empty", CAL + ["--targets", "targets-empty.csv"]),
    ("calibrate-targets-long-path", CAL + ["--targets", LONG_PATH]),
    ("run-out-below-a-file", ["run", "good.yaml", "--progress", "never", "--out", "notes.txt/sub/rep"]),
    ("run-out-long-name", ["run", "good.yaml", "--progress", "never", "--out", LONG]),
    ("run-out-long-path", ["run", "good.yaml", "--progress", "never", "--out", "/".join(["d" * 200] * 21)]),
    ("compare-out-long-name", ["compare", "A", "A", "--out", "c" * 300 + ".csv"]),
    ("run-set-long-key", ["run", "good.yaml", "--progress", "never", "--set", LONG + "=1"]),
    ("run-set-long-rule-key", ["run", "good.yaml", "--progress", "never", "--set", "rules." + LONG + "=1"]),
    ("run-set-long-behavior-key", ["run", "good.yaml", "--progress", "never", "--set", "behavior." + LONG + "=1"]),
    ("run-set-long-value", ["run", "good.yaml", "--progress", "never", "--set", "rules.tokens.monthly_purchase_cap=" + LONG]),
    ("run-set-long-date", ["run", "good.yaml", "--progress", "never", "--set", "start=" + LONG]),
    ("run-set-long-no-equals", ["run", "good.yaml", "--progress", "never", "--set", LONG]),
    ("validate-long-scenario-key", ["validate", "long-key.yaml"]),
    ("validate-long-name", ["validate", "long-value.yaml"]),
    ("validate-long-path", ["validate", LONG_PATH]),
    ("calibrate-long-fit", CAL[:-2] + ["--fit", "behavior." + LONG]),
    ("compare-long-paths", ["compare", LONG_PATH, LONG_PATH, "--out", "c9.csv"]),
    ("check-long-baseline-path", ["check", "good.yaml", "--baseline", LONG_PATH]),
    ("trace-long-arm", ["trace", "good.yaml", "--person", "0", "--arm", LONG]),
]
for name, args in SHORT_CASES:
    if not suite.wants(name):
        continue
    before = sb.snapshot()
    res = sb.run([H] + args, cwd=cwd, timeout=rt.TIMEOUT)
    problems = rt.refusal_problems(res, {2}, sb, before)
    if res.forbidden():
        problems.append("library internals: " + ", ".join(res.forbidden()) + f" in {res.first_err!r}")
    size = len(res.err.encode())
    if size > 2048 or any(len(l.encode()) > 1024 for l in res.err_lines()):
        problems.append(f"stderr is {size} bytes (longest line {max((len(l.encode()) for l in res.err_lines()), default=0)}): {res.first_err[:100]!r}")
    if "The operation could not be completed" in res.err:
        problems.append(f"Foundation's words, not Habitat's: {res.first_err!r}")
    if "permission" in res.err.lower():
        problems.append(f"says permission, as root, for no permission problem: {res.first_err!r}")
    suite.record(name, problems, res.first_err)

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
