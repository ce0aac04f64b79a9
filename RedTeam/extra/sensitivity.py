#!/usr/bin/env python3
"""Sensitivity, plausible sets and robustness (issue 45): `habitat sensitivity`, `habitat calibrate --plausible N` and
`habitat run --robustness FILE|N` given hostile files, folders and options, and one tiny successful run of each.

    RedTeam/extra/sensitivity.py HABITAT [FILTER]

Every command runs in one sandbox (mktemp -d) holding canaries; runs are tiny (--people 40 --days 7 --replications 1
--threads 1; sensitivity designs of 2 parameters × 2 trajectories = 6 points). Every refusal must exit 2 with a message
naming the file or option and what is allowed, no crash, no library internals, every stderr line ≤ 1 KB, nothing in
the sandbox changed (type, size, mode, link count, link target and sha256 of every entry) and nothing simulated first
(no `point N/M` or `world N/M` progress line, nothing on stdout). Every run that must succeed exits 0 and changes
nothing outside its --out folder.

- sens-ranges-*: `--ranges` a FIFO, a folder, binary, missing, empty, a bad header, nan / inf / low ≥ high, a short row,
  a parameter that does not exist, a range outside the validated one (the message names the file); a plausible-widths.csv
  as --ranges works (range_source `file`).
- sens-range-*: `--range` malformed (no `=`, one bound, words, LO ≥ HI, nan), outside the validated range (naming
  --range, as calibrate's does), naming a parameter not varied.
- sens-params-*, sens-kpis-*, sens-sobol-*, sens-samples-*, sens-levels-*, sens-shard-*: unknown parameters (did you
  mean), keys that are not behaviour parameters, unknown KPIs (refused before any point runs), Sobol over 20
  parameters, --samples 0/1/100001, odd --levels, --shard 0/3, 4/3 and with --merge.
- sens-merge-*: a missing folder, a FIFO named sensitivity-design.csv, a FIFO named manifest.json, a folder of foreign
  files, a run report folder, a finished analysis, shards of another scenario and of another size (scenario hash),
  --merge given another size, an incomplete set, a duplicated shard, a shard of another design seed / sample count /
  split, --merge given another design seed.
- sens-out-*: --out a non-empty foreign folder, a run report folder, the scenario file: refused before any point is
  simulated, nothing touched (merge --out a foreign folder too).
- sens-ok-*: one design, its three shards and their merge (sensitivity.csv and sensitivity-design.csv byte for byte
  the single run's, the shard folders untouched), a rerun over its own analysis, a test function (with its manifest).
- cal-*: --plausible 0 / 10001, --waves 0, --criterion 0, negative and nan --discrepancy, --cutoff 0, --span or --range
  without --plausible, --range malformed / outside / not fitted; --waves, --criterion, --discrepancy, --cutoff without
  --plausible (refused like --span, not silently ignored); one tiny plausible set (--plausible 2 --budget 4).
- rob-*: a one-arm scenario, a FIFO, a folder without plausible-set.csv, garbage, binary, nan, a world outside a
  parameter's range (naming the file), an unknown behaviour column, no world column, header only, N larger than the set,
  N = 0 and −1, the default set missing, --plausible-set without --robustness; --robustness over the 2-world set (a
  folder, and N = 2 from it) writing robustness.csv and robustness-leader.csv, listed in the manifest.
"""
import csv
import json
import os
import re
import shutil
import stat
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rt  # noqa: E402

H, FILTER = rt.habitat_from_argv("sensitivity.py HABITAT [FILTER]")
suite = rt.Suite("sensitivity: sensitivity, plausible sets, robustness (issue 45)", FILTER)
sb = rt.Sandbox("sensitivity")
cwd = sb.mkdir("work")
sb.mkdir("work", "sub")
sb.canary("", "work", "work/sub")
SC = os.path.join(rt.REPO, "Scenarios")
TWO = "premium-price-test.yaml"    # two arms: control, premium-599
ONE = "scroll-off-baseline.yaml"   # one arm
for f in (TWO, ONE):
    shutil.copy(os.path.join(SC, f), os.path.join(cwd, f))
SMALL = ["--people", "40", "--days", "7", "--replications", "1", "--threads", "1", "--progress", "never"]
HZ, VW = "behavior.churn.base_hazard", "behavior.churn.value_weight"
P2 = ["--params", HZ, VW, "--samples", "2"]
SENS = ["sensitivity", TWO] + SMALL + P2
CAL = ["calibrate", TWO] + SMALL + ["--fit", HZ, "--budget", "4"]
RUN = ["run", TWO] + SMALL
SIMULATED = re.compile(r"^\s*(point|world) \d+/\d+", re.M)


def snap():
    """The sandbox with link counts (rt.snapshot_with_links)."""
    return rt.snapshot_with_links(sb)


changed = rt.changed_except


def path(*parts):
    return os.path.join(cwd, *parts)


def write(rel, data):
    p = path(rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return p


def long_lines(res):
    return [len(l.encode()) for l in res.err.splitlines() if len(l.encode()) > 1024]


def message(res):
    """The refusal's own line: the first `habitat: …` or `Error: …` line, else the first line of stderr."""
    for line in res.err.splitlines():
        if re.match(r"(habitat|Error): ", line) or ": error: " in line:
            return line.strip()
    return res.first_err


def refused(name, args, wants=(), avoid=()):
    """ARGS must be refused: exit 2, a message holding every text of WANTS (regexes) and none of AVOID, lines ≤ 1 KB,
    no library internals, nothing simulated first (no progress line, nothing on stdout), nothing changed."""
    if not suite.wants(name):
        return
    before = snap()
    res = sb.run([H] + args, cwd=cwd, name=name)
    p = rt.common_problems(res, {2})
    if not res.err.strip():
        p.append("no message on stderr")
    if res.rc == 2:
        p += [f"the message does not say /{w}/: {message(res)[:200]!r}" for w in wants if not re.search(w, res.err)]
        p += [f"the message says {a!r}: {res.first_err!r}" for a in avoid if a in res.err]
    m = SIMULATED.search(res.err) or SIMULATED.search(res.out)
    if m or res.out.strip():
        p.append(f"simulated before refusing ({(m.group(0).strip() if m else res.out.splitlines()[0][:60])!r} …)")
    if long_lines(res):
        p.append(f"stderr lines over 1 KB: {long_lines(res)[:3]} bytes")
    if res.forbidden():
        p.append("library internals: " + " ".join(res.forbidden()))
    diff = changed(before, snap())
    if diff:
        p.append("changed: " + " ".join(diff[:5]))
    if sb.canaries_intact():
        p.append("canaries: " + " ".join(sb.canaries_intact()))
    suite.record(name, p, message(res))
    return res


def succeeds(name, args, out=None, check=None, fixture=False):
    """ARGS must exit 0, change nothing outside OUT (relative to work/), and pass CHECK(result) → problems. A FIXTURE
    (what later cases read) still runs, unjudged, when FILTER leaves the case out."""
    if not suite.wants(name):
        return sb.run([H] + args, cwd=cwd, timeout=max(rt.TIMEOUT, 60), name=name) if fixture else None
    before = snap()
    res = sb.run([H] + args, cwd=cwd, timeout=max(rt.TIMEOUT, 60), name=name)
    p = rt.common_problems(res, {0})
    if long_lines(res):
        p.append(f"stderr lines over 1 KB: {long_lines(res)[:3]} bytes")
    diff = changed(before, snap(), inside=("work/" + out) if out else None)
    if diff:
        p.append("changed outside --out: " + " ".join(diff[:5]))
    if sb.canaries_intact():
        p.append("canaries: " + " ".join(sb.canaries_intact()))
    if res.rc == 0 and check:
        try:
            p += check(res)
        except (OSError, ValueError, KeyError) as e:
            p.append(f"its files unreadable: {e}")
    suite.record(name, p, (res.err.strip().splitlines() or [""])[-1])
    return res


def files_listed(out, want, absent=()):
    """A check: every file of WANT in OUT (non-empty), manifest.json's `files` listing exactly the folder's other files
    (and every one of WANT), none of ABSENT there."""
    def check(_):
        d = path(out)
        p = [f"{f} missing or empty" for f in list(want) + ["manifest.json"]
             if not os.path.isfile(os.path.join(d, f)) or os.path.getsize(os.path.join(d, f)) == 0]
        p += [f"{f} written" for f in absent if os.path.exists(os.path.join(d, f))]
        if os.path.isfile(os.path.join(d, "manifest.json")):
            with open(os.path.join(d, "manifest.json")) as f:
                listed = set(json.load(f).get("files", []))
            there = set(os.listdir(d)) - {"manifest.json"}
            if listed != there:
                p.append(f"manifest lists {sorted(listed)}, the folder holds {sorted(there)}")
            p += [f"manifest does not list {f}" for f in want if f not in listed]
        return p
    return check


def both(*checks):
    return lambda res: [x for c in checks for x in c(res)]


def rows(rel):
    with open(path(rel), newline="") as f:
        return list(csv.DictReader(f))


# --- fixtures --------------------------------------------------------------------------------------------------------

os.mkfifo(path("r-fifo.csv"))
os.mkdir(path("r-dir"))
write("r-bin.csv", b"\x00\x01\xff\xfeparameter,low,high\n")
write("r-empty.csv", "")
write("r-hdr.csv", "param,lo,hi\nbehavior.churn.base_hazard,0.01,0.1\n")
RANGE_ROWS = {"nan": "nan,0.1", "inf": "0,inf", "low-above-high": "0.1,0.05", "low-equals-high": "0.1,0.1", "words": "low,high"}
for label, vals in RANGE_ROWS.items():
    write(f"r-{label}.csv", f"parameter,low,high\n{HZ},{vals}\n")
write("r-short.csv", f"parameter,low,high\n{HZ},0.1\n")
write("r-unknown.csv", f"parameter,low,high\nbehavior.churn.nope,0.1,0.2\n{HZ},0.01,0.1\n")
write("r-outside.csv", f"parameter,low,high\n{HZ},0.01,5000\n")
os.mkdir(path("foreign"))
write("foreign/mine.txt", "the user's own file\n")
setup = sb.run([H] + RUN + ["--out", "runrep"], cwd=cwd, name="setup-runrep")
if setup.rc != 0:
    suite.record("setup-run-report", [f"run --out runrep failed: {setup.brief()}"])

# --- sensitivity: ranges --------------------------------------------------------------------------------------------

for label, rel, wants in [
        ("fifo", "r-fifo.csv", [r"r-fifo\.csv", "named pipe"]),
        ("folder", "r-dir", [r"r-dir", "folder"]),
        ("binary", "r-bin.csv", [r"r-bin\.csv", "binary"]),
        ("missing", "r-none.csv", [r"r-none\.csv", "does not exist"]),
        ("empty", "r-empty.csv", [r"r-empty\.csv", r"parameter,low,high"]),
        ("bad-header", "r-hdr.csv", [r"r-hdr\.csv", r"parameter,low,high", r"got param,lo,hi"])]:
    refused(f"sens-ranges-{label}", SENS + ["--ranges", rel, "--out", "s-x"], wants)
for label in RANGE_ROWS:
    refused(f"sens-ranges-{label}", SENS + ["--ranges", f"r-{label}.csv", "--out", "s-x"],
            [rf"r-{label}\.csv:2", re.escape(HZ), "finite numbers", "low < high"])
refused("sens-ranges-short-row", SENS + ["--ranges", "r-short.csv", "--out", "s-short"], [r"r-short\.csv:2", re.escape(HZ)])
refused("sens-ranges-unknown-parameter", SENS + ["--ranges", "r-unknown.csv", "--out", "s-unknown"],
        [r"r-unknown\.csv:2", r"behavior\.churn\.nope", "behaviour parameter"])
refused("sens-ranges-outside-validated", SENS + ["--ranges", "r-outside.csv", "--out", "s-x"],
        [r"r-outside\.csv", re.escape(HZ), r"0\.0…1\.0"])

# --- sensitivity: --range, --params, --kpis, design options ---------------------------------------------------------

for label, item in [("no-equals", "foo"), ("one-bound", f"{HZ}=0.1"), ("words", f"{HZ}=a:b"),
                    ("low-above-high", f"{HZ}=0.2:0.1"), ("nan", f"{HZ}=nan:0.5"), ("empty", "")]:
    refused(f"sens-range-malformed-{label}", SENS + ["--range", item, "--out", "s-x"], [r"--range", r"KEY=LO:HI"])
refused("sens-range-outside-validated", SENS + ["--range", f"{HZ}=0.1:7", "--out", "s-x"],
        [r"--range", re.escape(HZ), r"0\.0…1\.0"])
refused("sens-range-unvaried", SENS + ["--range", "behavior.purchase.buy_constant=-1:0", "--out", "s-x"],
        [r"--range behavior\.purchase\.buy_constant", "not among the parameters varied"])
refused("sens-params-unknown", ["sensitivity", TWO] + SMALL + ["--params", "behavior.churn.base_hazrd", "--samples", "2", "--out", "s-x"],
        [r"--params", r"behavior\.churn\.base_hazrd", r"did you mean 'behavior\.churn\.base_hazard'"])
for label, key in [("rules", "rules.prices.premium_monthly"), ("no-prefix", "churn.base_hazard"), ("long", "behavior." + "k" * 5000)]:
    refused(f"sens-params-not-behavior-{label}", ["sensitivity", TWO] + SMALL + ["--params", key, "--samples", "2", "--out", "s-x"],
            [r"--params", r"behaviour parameter"])
refused("sens-kpis-unknown", SENS + ["--kpis", "nope_kpi", "--out", "s-x"], [r"--kpis", r"'nope_kpi'", "allowed"])
refused("sens-kpis-typo", SENS + ["--kpis", "retention_d1", "retention_d2", "--out", "s-x"],
        [r"--kpis", r"'retention_d2'", r"did you mean"], avoid=["'retention_d1' is"])
refused("sens-sobol-over-20-parameters", ["sensitivity", TWO] + SMALL + ["--all", "--method", "sobol", "--samples", "2", "--out", "s-x"],
        [r"--method sobol", r"at most 20 parameters", r"got \d+"])
for n in ("0", "1", "100001", "-3", "many"):
    refused(f"sens-samples-{n}", SENS + ["--samples", n, "--out", "s-x"], [r"--samples"])
for n in ("3", "0", "102"):
    refused(f"sens-levels-{n}", SENS + ["--levels", n, "--out", "s-x"], [r"--levels", r"even"])
for spec in ("0/3", "4/3", "1/0", "x/3"):
    refused(f"sens-shard-{spec.replace('/', '-of-')}", SENS + ["--shard", spec, "--out", "s-x"], [r"--shard", r"K/N"])
refused("sens-shard-with-merge", SENS + ["--shard", "1/3", "--merge", "runrep", "--out", "s-x"], [r"--shard", r"--merge"])
refused("sens-span-0", SENS + ["--span", "0", "--out", "s-x"], [r"--span", r"\(0, 100\]"])
refused("sens-function-unknown", ["sensitivity", "--function", "nope", "--out", "s-x"], [r"--function", r"ishigami, g-function"])

# --- sensitivity: --out --------------------------------------------------------------------------------------------------

refused("sens-out-foreign-folder", SENS + ["--out", "foreign"], [r"'foreign'", r"did not write", r"mine\.txt"])
refused("sens-out-run-report", SENS + ["--out", "runrep"], [r"'runrep'", r"run report"])
refused("sens-out-scenario-file", SENS + ["--out", TWO], [re.escape(TWO), r"regular file"])

# --- sensitivity: one design, its shards and their merge -------------------------------------------------------------

DESIGN_FILES = ["sensitivity.csv", "sensitivity-design.csv"]


def analysis_ok(out):
    def check(_):
        r = rows(f"{out}/sensitivity.csv")
        params = {x["parameter"] for x in r}
        p = [] if params == {HZ, VW} else [f"sensitivity.csv parameters {sorted(params)}, expected {HZ} and {VW}"]
        if not any(x["quantity"] == "paired_diff" for x in r):
            p.append("no paired_diff rows for the two-arm scenario")
        return p
    return check


succeeds("sens-ok-single", SENS + ["--out", "s-single"], out="s-single",
         check=both(files_listed("s-single", DESIGN_FILES), analysis_ok("s-single")), fixture=True)
for k in (1, 2, 3):
    succeeds(f"sens-ok-shard-{k}-of-3", SENS + ["--shard", f"{k}/3", "--out", f"s-sh{k}"], out=f"s-sh{k}",
             check=files_listed(f"s-sh{k}", ["sensitivity-design.csv"], absent=["sensitivity.csv"]), fixture=True)


def same_as_single(out):
    def check(_):
        return [f"{f} differs from the single run's" for f in DESIGN_FILES
                if not os.path.isfile(path(out, f)) or rt.sha256(path(out, f)) != rt.sha256(path("s-single", f))]
    return check


succeeds("sens-ok-merge-byte-identical", SENS + ["--merge", "s-sh1", "s-sh2", "s-sh3", "--out", "s-merged"], out="s-merged",
         check=both(files_listed("s-merged", DESIGN_FILES), same_as_single("s-merged")))
succeeds("sens-ok-rerun-replaces-own-analysis", SENS + ["--out", "s-single"], out="s-single",
         check=both(files_listed("s-single", DESIGN_FILES), analysis_ok("s-single")))
succeeds("sens-ok-function-ishigami", ["sensitivity", "--function", "ishigami", "--samples", "2", "--progress", "never", "--out", "s-fn"],
         out="s-fn", check=files_listed("s-fn", DESIGN_FILES))
succeeds("sens-ok-function-rerun-replaces", ["sensitivity", "--function", "ishigami", "--samples", "2", "--progress", "never", "--out", "s-fn"],
         out="s-fn", check=files_listed("s-fn", DESIGN_FILES))
refused("sens-merge-out-foreign-folder", SENS + ["--merge", "s-sh1", "s-sh2", "s-sh3", "--out", "foreign"], [r"'foreign'", r"did not write"])

# --- sensitivity: --merge of the wrong folders -----------------------------------------------------------------------

sizes = {"s-other-size": ["sensitivity", TWO, "--people", "41"] + SMALL[2:] + P2 + ["--shard", "2/3"],
         "s-other-scenario": ["sensitivity", ONE] + SMALL + P2 + ["--shard", "2/3"],
         "s-other-seed": SENS + ["--design-seed", "7", "--shard", "2/3"],
         "s-other-samples": SENS[:-1] + ["3", "--shard", "2/3"],
         "s-other-split": SENS + ["--shard", "2/4"]}
for out, args in sizes.items():
    r = sb.run([H] + args + ["--out", out], cwd=cwd, name=f"setup-{out}")
    if r.rc != 0:
        suite.record(f"setup-{out}", [f"{' '.join(args[:2])} … failed: {r.brief()}"])
os.mkdir(path("m-fifo-design"))
os.mkfifo(path("m-fifo-design", "sensitivity-design.csv"))
if os.path.isfile(path("s-sh2", "manifest.json")):
    shutil.copy(path("s-sh2", "manifest.json"), path("m-fifo-design", "manifest.json"))
os.mkdir(path("m-fifo-manifest"))
if os.path.isfile(path("s-sh2", "sensitivity-design.csv")):
    shutil.copy(path("s-sh2", "sensitivity-design.csv"), path("m-fifo-manifest", "sensitivity-design.csv"))
os.mkfifo(path("m-fifo-manifest", "manifest.json"))
os.mkdir(path("m-foreign"))
write("m-foreign/notes.txt", "mine\n")
write("m-foreign/data.csv", "a,b\n1,2\n")


def merge(second, extra=()):
    return SENS + list(extra) + ["--merge", "s-sh1", second, "s-sh3", "--out", "s-m"]


for label, second, wants in [
        ("missing-folder", "nowhere", [r"nowhere", r"does not exist|no such"]),
        ("fifo-design", "m-fifo-design", [r"m-fifo-design/sensitivity-design\.csv", r"named pipe"]),
        ("fifo-manifest", "m-fifo-manifest", [r"m-fifo-manifest", r"manifest\.json", r"named pipe"]),
        ("foreign-files", "m-foreign", [r"m-foreign", r"sensitivity --shard"]),
        ("run-report", "runrep", [r"runrep", r"sensitivity --shard"]),
        ("finished-analysis", "s-single", [r"s-single", r"not a sensitivity shard folder"]),
        ("other-scenario", "s-other-scenario", [r"s-other-scenario", r"scenario hash"]),
        ("other-size", "s-other-size", [r"s-other-size", r"scenario hash", r"--people"]),
        ("other-design-seed", "s-other-seed", [r"s-other-seed", r"design"]),
        ("other-samples", "s-other-samples", [r"s-other-samples", r"another design"]),
        ("other-split", "s-other-split", [r"two shards|another|split"])]:
    refused(f"sens-merge-{label}", merge(second), wants)
refused("sens-merge-incomplete", SENS + ["--merge", "s-sh1", "s-sh3", "--out", "s-m"], [r"miss 2 of 6 design points", r"every shard"])
refused("sens-merge-duplicated-shard", SENS + ["--merge", "s-sh1", "s-sh2", "s-sh2", "s-sh3", "--out", "s-m"],
        [r"s-sh2", r"in two shards"])
refused("sens-merge-given-other-design-seed", SENS + ["--design-seed", "7", "--merge", "s-sh1", "s-sh2", "s-sh3", "--out", "s-m"],
        [r"s-sh1", r"design options"])
refused("sens-merge-given-other-size", ["sensitivity", TWO, "--people", "41"] + SMALL[2:] + P2 + ["--merge", "s-sh1", "s-sh2", "s-sh3", "--out", "s-m"],
        [r"s-sh1", r"scenario hash"])

# --- calibrate --plausible ---------------------------------------------------------------------------------------------

for label, extra, wants in [
        ("plausible-0", ["--plausible", "0"], [r"--plausible", r"1…10000"]),
        ("plausible-10001", ["--plausible", "10001"], [r"--plausible", r"1…10000"]),
        ("waves-0", ["--plausible", "2", "--waves", "0"], [r"--waves", r"1…50"]),
        ("criterion-0", ["--plausible", "2", "--criterion", "0"], [r"--criterion", r"1…10"]),
        ("discrepancy-negative", ["--plausible", "2", "--discrepancy", "-0.5"], [r"--discrepancy", r"0…100"]),
        ("discrepancy-nan", ["--plausible", "2", "--discrepancy", "nan"], [r"--discrepancy", r"0…100"]),
        ("cutoff-0", ["--plausible", "2", "--cutoff", "0"], [r"--cutoff", r"positive"]),
        ("span-0", ["--plausible", "2", "--span", "0"], [r"--span", r"\(0, 100\]"]),
        ("span-without-plausible", ["--span", "0.5"], [r"--span", r"--plausible"]),
        ("range-without-plausible", ["--range", f"{HZ}=0.1:0.2"], [r"--range", r"--plausible"]),
        ("range-malformed", ["--plausible", "2", "--range", "foo"], [r"--range", r"KEY=LO:HI"]),
        ("range-outside-validated", ["--plausible", "2", "--range", f"{HZ}=0.1:5"], [r"--range", re.escape(HZ), r"0\.0…1\.0"]),
        ("range-not-fitted", ["--plausible", "2", "--range", f"{VW}=0.1:5"], [rf"--range {re.escape(VW)}", r"--fit"])]:
    refused(f"cal-{label}", CAL + extra + ["--out", "cal-x"], wants)
# the other history-matching options do nothing without --plausible: refused like --span, not silently ignored
for opt, value in [("--waves", "3"), ("--criterion", "1"), ("--discrepancy", "0.2"), ("--cutoff", "2")]:
    refused(f"cal{opt[1:]}-without-plausible", CAL + [opt, value, "--out", f"cal-{opt[2:]}"], [re.escape(opt), r"--plausible"])


def plausible_ok(_):
    p = files_listed("pl", ["plausible-set.csv", "plausible-widths.csv", "plausible-waves.csv", "plausible-worlds.csv"])(_)
    r = rows("pl/plausible-set.csv")
    if not 1 <= len(r) <= 2:
        p.append(f"plausible-set.csv has {len(r)} worlds, expected 1…2")
    if r and not {"world", HZ, VW} <= set(r[0]):
        p.append(f"plausible-set.csv lacks world or the fitted columns: {sorted(r[0])[:8]}")
    return p


succeeds("cal-ok-plausible-2", ["calibrate", TWO] + SMALL + ["--fit", HZ, "--fit", VW, "--plausible", "2", "--budget", "4", "--out", "pl"],
         out="pl", check=plausible_ok, fixture=True)
succeeds("sens-ok-ranges-from-plausible-widths", SENS + ["--ranges", "pl/plausible-widths.csv", "--out", "s-widths"], out="s-widths",
         check=both(files_listed("s-widths", DESIGN_FILES),
                    lambda _: [] if {x["range_source"] for x in rows("s-widths/sensitivity.csv")} == {"file"}
                    else ["range_source is not 'file' for every row"]))

# --- run --robustness ----------------------------------------------------------------------------------------------

SET_HEAD = f"world,{HZ},{VW}\n"
write("p-good.csv", SET_HEAD + "1,0.05,2\n2,0.2,5\n")
os.mkfifo(path("p-fifo.csv"))
os.mkdir(path("p-emptydir"))
write("p-garbage.csv", "a,b\n1,2\n")
write("p-binary.csv", b"\x00\x01\x02world\xff\n")
write("p-nan.csv", SET_HEAD + "1,nan,2\n2,0.2,5\n")
write("p-outside.csv", SET_HEAD + "1,0.05,2\n2,7,5\n")
write("p-unknown.csv", f"world,{HZ},behavior.churn.nope\n1,0.05,2\n2,0.2,5\n")
write("p-noworld.csv", f"{HZ},{VW}\n0.05,2\n0.2,5\n")
write("p-header-only.csv", SET_HEAD)
for label, arg, wants in [
        ("fifo", "p-fifo.csv", [r"--robustness", r"p-fifo\.csv", r"named pipe"]),
        ("folder-without-set", "p-emptydir", [r"--robustness", r"p-emptydir/plausible-set\.csv", r"does not exist"]),
        ("missing", "p-none.csv", [r"--robustness", r"p-none\.csv", r"does not exist"]),
        ("garbage", "p-garbage.csv", [r"--robustness", r"p-garbage\.csv", r"not a plausible set", r"world column"]),
        ("binary", "p-binary.csv", [r"--robustness", r"p-binary\.csv", r"binary"]),
        ("nan", "p-nan.csv", [r"--robustness", r"p-nan\.csv", r"finite"]),
        ("world-outside-range", "p-outside.csv", [r"p-outside\.csv", re.escape(HZ), r"0\.0…1\.0"]),
        ("unknown-behavior-column", "p-unknown.csv", [r"p-unknown\.csv", r"behavior\.churn\.nope", r"not a behaviour parameter"]),
        ("no-world-column", "p-noworld.csv", [r"p-noworld\.csv", r"world column"]),
        ("header-only", "p-header-only.csv", [r"p-header-only\.csv", r"one row or more"])]:
    refused(f"rob-{label}", RUN + ["--robustness", arg, "--out", "rob-x"], wants)
refused("rob-one-arm-scenario", ["run", ONE] + SMALL + ["--robustness", "p-good.csv", "--out", "rob-x"], [re.escape(ONE), r"one arm"])
for n in ("5", "0", "-1"):
    refused(f"rob-n-{n}", RUN + ["--robustness", n, "--plausible-set", "p-good.csv", "--out", "rob-x"],
            [rf"--robustness {n}", r"2 world", r"allowed 1…2"])
refused("rob-n-default-set-missing", RUN + ["--robustness", "2", "--out", "rob-x"],
        [r"Calibration/plausible/plausible-set\.csv", r"--plausible-set"])
refused("rob-n-set-missing", RUN + ["--robustness", "1", "--plausible-set", "p-none.csv", "--out", "rob-x"], [r"p-none\.csv"])
refused("rob-plausible-set-without-robustness", RUN + ["--plausible-set", "p-good.csv", "--out", "rob-y"],
        [r"--plausible-set", r"--robustness"])


def robust_ok(out, worlds):
    def check(_):
        p = files_listed(out, ["experiment.csv", "robustness.csv", "robustness-leader.csv"])(_)
        with open(path(out, "experiment.csv"), newline="") as f:
            head = next(csv.reader(f))
        p += [f"experiment.csv lacks {c}" for c in ("robust_worlds", "sign_share", "robustness") if c not in head]
        got = {x["world"] for x in rows(f"{out}/robustness.csv")}
        if got != worlds:
            p.append(f"robustness.csv worlds {sorted(got)}, expected {sorted(worlds)}")
        return p
    return check


succeeds("rob-ok-plausible-folder", RUN + ["--robustness", "pl", "--out", "rob-pl"], out="rob-pl",
         check=robust_ok("rob-pl", {"0"} | {x["world"] for x in (rows("pl/plausible-set.csv") if os.path.isfile(path("pl/plausible-set.csv")) else [])}))
succeeds("rob-ok-two-world-file", RUN + ["--robustness", "p-good.csv", "--out", "rob-good"], out="rob-good", check=robust_ok("rob-good", {"0", "1", "2"}), fixture=True)


def same_robustness(_):
    a, b = path("rob-n", "robustness.csv"), path("rob-good", "robustness.csv")
    return [] if os.path.isfile(a) and os.path.isfile(b) and rt.sha256(a) == rt.sha256(b) else ["robustness.csv differs from the file's"]


succeeds("rob-ok-n-2-from-set", RUN + ["--robustness", "2", "--plausible-set", "p-good.csv", "--out", "rob-n"], out="rob-n",
         check=both(robust_ok("rob-n", {"0", "1", "2"}), same_robustness))

sb.cleanup()
suite.finish()
