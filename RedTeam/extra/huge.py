#!/usr/bin/env python3
"""Huge inputs, one per reader: each refused in words within a small memory cap, never read whole (issue 40).

    RedTeam/extra/huge.py HABITAT [FILTER]

In a sandbox (mktemp -d): a small scenario, a baseline recorded from it (`check --record`), a run folder and two
shard folders of it. Then, one reader at a time, a 3 GB sparse file (it costs no disk) stands where Habitat reads:
  - the lock `.rep.lock` (run); a 3 GB line in `shard-state.jsonl` — a record line and the header line — and a 3 GB
    shard `manifest.json` (merge);
  - a baseline's `retention.csv`, `kpis.csv`, `manifest.json` and `baseline.json` (check); a run folder's `kpis.csv`
    and `manifest.json` (compare);
  - a scenario (validate, run), an `--also` scenario (calibrate), `--targets` (calibrate), `--tolerances` (check),
    the CSV a scenario names (`population.acquisition.csv`), the file at `compare --out`.
Each must end with exit 2 and one stderr line (at most 1 KB; a scenario's diagnostics may add their count, `1 error
in big.yaml`) naming the file and its limit (docs/CONTRACT.md,
"Input sizes"), no crash (no exit 134), within TIMEOUT and RSS_MB (at most 512 MB here), the huge file untouched and
nothing written. A run folder's 3 GB `retention.csv` is not something `compare` reads: it must succeed (exit 0)
within the cap.
"""
import os
import re
import shutil
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rt  # noqa: E402

H, FILTER = rt.habitat_from_argv("huge.py HABITAT [FILTER]")
suite = rt.Suite("huge inputs (a 3 GB sparse file at every reader)", FILTER)
RSS = min(rt.RSS_MB, 512)
BIG = 3 << 30

sb = rt.Sandbox("huge")
cwd = sb.mkdir("work")
sb.canary("", "work")
SCEN = "name: ck\nhorizon_days: 7\nreplications: 1\npopulation:\n  installs: 50\n"
sb.write("work/ck.yaml", SCEN)
SIZE = ["--people", "20", "--days", "3", "--replications", "1"]


def setup(name, args):
    r = sb.run([H] + args, cwd=cwd, name=name)
    if r.rc != 0:
        suite.record(f"setup-{name}", [f"{' '.join(args[:2])} failed: {r.brief()}"])
        sb.cleanup()
        suite.finish()


setup("baseline", ["check", "ck.yaml", "--baseline", "GOOD", "--record", "--reason", "r"] + SIZE)
setup("run", ["run", "ck.yaml"] + SIZE + ["--progress", "never", "--out", "RUN"])
for k in (1, 2):
    setup(f"shard{k}", ["run", "ck.yaml", "--shard", f"{k}/2", "--out", f"s{k}"] + SIZE + ["--progress", "never"])
n = 0


def copy(folder):
    global n
    n += 1
    d = f"copy{n:02d}"
    shutil.copytree(os.path.join(cwd, folder), os.path.join(cwd, d))
    return d


def huge(rel, head=b""):
    """A sparse file of BIG bytes at work/REL, starting with HEAD (the rest NUL bytes, no newline)."""
    p = os.path.join(cwd, rel)
    if os.path.lexists(p):
        os.unlink(p)
    with open(p, "wb") as f:
        f.write(head)
        f.truncate(BIG)
    return p


def first_line(p):
    with open(p, "rb") as f:
        return f.readline()


def case(name, prepare, args, wants, expect=2, also_made=()):
    """PREPARE() plants the huge file and returns its path (relative to work/); ARGS run in work/, with "{}" in them
    replaced by the first folder of that path (a fresh copy of a run folder); the refusal must say every text of WANTS."""
    if not suite.wants(name):
        return
    rel = prepare()
    path = os.path.join(cwd, rel)
    args = [a.replace("{}", rel.split("/")[0]) for a in args]
    st = os.stat(path)
    before = set(os.listdir(cwd))
    r = sb.run([H] + args, cwd=cwd, rss_mb=RSS, name=name)
    problems = rt.common_problems(r, {expect})
    # a scenario's diagnostics end with their count ("1 error in big.yaml"): that line is not a second message
    lines = [l for l in r.err_lines() if not re.match(r"^\d+ errors? in ", l)]
    if r.rc == 2 == expect:
        if len(lines) != 1:
            problems.append(f"{len(lines)} stderr lines")
        problems += [f"the message does not say {w!r}: {r.first_err!r}" for w in wants if w not in r.err]
        if any(len(l.encode()) > 1024 for l in lines):
            problems.append("a stderr line over 1 KB")
    if r.forbidden():
        problems.append("library internals: " + " ".join(r.forbidden()))
    now = os.stat(path)
    if (now.st_size, now.st_mtime_ns, now.st_mode) != (st.st_size, st.st_mtime_ns, st.st_mode):
        problems.append(f"{rel} changed")
    made = sorted(set(os.listdir(cwd)) - before - set(also_made))
    if made:
        problems.append("made: " + " ".join(made))
    suite.record(name, problems, f"{r.first_err.removeprefix('habitat: ')[:130]} ({r.rss} MB)")
    os.unlink(path)


def in_copy(folder, file, head=None):
    """A fresh copy of work/FOLDER with FILE made huge (starting with HEAD(original path) when given)."""
    def prep():
        d = copy(folder)
        original = os.path.join(cwd, folder, file)
        huge(f"{d}/{file}", head(original) if head else b"")
        return f"{d}/{file}"
    return prep


def huge_at(rel):
    def prep():
        huge(rel)
        return rel
    return prep


MB512 = "allowed at most 512 MB"
# ------------------------------------------------------------------ run, merge
case("huge-lock-run", huge_at(".rep.lock"), ["run", "ck.yaml"] + SIZE + ["--progress", "never", "--out", "rep"],
     [".rep.lock", "4096"])
MERGE = ["merge", "s1", "{}", "--progress", "never", "--out", "rep"]
case("huge-shard-state-record-line-merge", in_copy("s2", "shard-state.jsonl", first_line), MERGE,
     ["shard-state.jsonl", "line 2", "128 MB"])
case("huge-shard-state-header-line-merge", in_copy("s2", "shard-state.jsonl"), MERGE, ["shard-state.jsonl", "line 1", "128 MB"])
case("huge-shard-manifest-merge", in_copy("s2", "manifest.json"), MERGE, ["manifest.json", MB512])

# ------------------------------------------------------------------ check (a baseline), compare (run folders)
for file, wants in [("retention.csv", MB512), ("kpis.csv", MB512), ("manifest.json", MB512), ("baseline.json", "allowed at most 1 MB")]:
    case(f"huge-baseline-{file.replace('.', '-')}-check", in_copy("GOOD", file), ["check", "ck.yaml", "--baseline", "{}"] + SIZE,
         [file, wants])
for file in ("kpis.csv", "manifest.json"):
    case(f"huge-run-{file.replace('.', '-')}-compare", in_copy("RUN", file), ["compare", "{}", "RUN"], [file, MB512])
case("huge-run-retention-csv-compare-not-read", in_copy("RUN", "retention.csv"), ["compare", "{}", "RUN"], [], expect=0,
     also_made=["comparison.csv"])

# ------------------------------------------------------------------ scenarios, targets, tolerances, named CSVs, outputs
case("huge-scenario-validate", huge_at("big.yaml"), ["validate", "big.yaml"], ["big.yaml", "allowed at most 100 MB"])
case("huge-scenario-run", huge_at("big.yaml"), ["run", "big.yaml", "--progress", "never", "--out", "rep"],
     ["big.yaml", "allowed at most 100 MB"])
case("huge-also-scenario-calibrate", huge_at("big.yaml"),
     ["calibrate", "ck.yaml", "--also", "big.yaml", "--budget", "2", "--out", "cal"] + SIZE, ["big.yaml", "allowed at most 100 MB"])
case("huge-targets-calibrate", huge_at("big.csv"),
     ["calibrate", "ck.yaml", "--targets", "big.csv", "--budget", "2", "--out", "cal"] + SIZE, ["big.csv", "allowed at most 16 MB"])
case("huge-tolerances-check", huge_at("big.csv"), ["check", "ck.yaml", "--baseline", "GOOD", "--tolerances", "big.csv"] + SIZE,
     ["big.csv", "allowed at most 16 MB"])
sb.write("work/acq.yaml", SCEN.replace("  installs: 50\n", "  installs: 50\n  acquisition:\n    csv: big.csv\n"))
case("huge-acquisition-csv-run", huge_at("big.csv"), ["run", "acq.yaml"] + SIZE + ["--progress", "never", "--out", "rep"],
     ["big.csv", "allowed at most 64 MB"])
case("huge-file-at-compare-out", huge_at("big.csv"), ["compare", "RUN", "RUN", "--out", "big.csv"],
     ["big.csv", "not a previous output"])

lost = sb.canaries_intact()
if lost:
    suite.record("canaries", ["lost: " + " ".join(lost)])
sb.cleanup()
suite.finish()
