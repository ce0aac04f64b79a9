#!/usr/bin/env python3
"""Limits (issue 40): products as arms, tenures and Nudge's rule parameters at and past their limits (with invariants
read from traces at the limits), the joint fit's refusals and one tiny joint fit, and input files of the wrong type
for compare and merge.

    RedTeam/extra/limits.py HABITAT [FILTER]

Every command runs in one sandbox (mktemp -d) holding canaries; runs are tiny (--people 60 --days 7 --replications 1
at most). Every refusal must exit 2 with a message naming the file or key path (for a scenario, `file:line:col` of
the key), no crash, no library internals, every stderr line ≤ 1 KB and nothing in the sandbox changed (every entry
compared by type, size, mode, link count, link target and sha256). Every run that must succeed exits 0 and changes
nothing outside its --out folder.

- arms-*: products as arms — `products:` of every product with an engine and `none`, `none` alone, duplicate products,
  arms of one product twice, Clavis (planned until issue 44) as an arm, a product no engine serves as the scenario's
  product, in `products:`, on an arm (with other problems: all reported at once, each at its line:col) and as a sweep
  value; 1,000 arms validate,
  1,001 are refused naming the arm list (its length and the limit, not "the sweep has 0 points"), by validate and run;
  --allow-large lifts the limit; `trace --arm` naming no arm of the 1,000 lists a few (not 1,000).
- tenure-*: `tenure_days` (1…3650) at 1 and 3650 (run), at 0, 3651, -1, 1.5, text, on an arm and with --set (exit 2
  naming tenure_days, the value and 1…3650).
- nudge-at-min/max-KEY, nudge-past-min/max-KEY: every numeric rule parameter of Nudge (Sources/Products/Nudge/Rules/
  NudgeParameters.swift) at its minimum and maximum (run 60 × 7 × 1: exit 0) and just past each (exit 2 naming
  rules.KEY, the value and the range), and a choice outside its values.
- nudge-trace-*: runs with every person traced (outputs.trace_people), read back from trace-control-person-N.csv,
  with invariants stated by seed 001 (/work/shared/seeds/001_*.txt, §4 Feature 5 "Max 3 nudges per day", "Never
  after 9pm. Never before 8am"; §4 Feature 1 "Cap recording at 55 seconds", "Free tier limit | 3 brain dumps per day";
  §4 Feature 2 "Free tier limit | 5 saved items") checked at the parameters' limits.
- joint-*: `habitat calibrate A --also B --also C` (Scroll Off, Earned Access, Nudge) refusals — unknown target,
  target of a product not in the fit, target without its product, targets file errors, unknown --fit keys, a product
  twice, a scenario of a product no engine serves — each exit 2 with every stderr line ≤ 1 KB; and one tiny joint fit (20 × 3 × 1,
  budget 2) that succeeds with its five outputs.
- types-*: `compare` on a run whose kpis.csv or manifest.json is a FIFO, a folder or a socket, and `merge` of a shard
  whose manifest.json is one: exit 2 saying what it is (not "missing", not "no readable manifest.json"); `bench run
  --product zeta` (no such product) is exit 2.
"""
import csv
import glob
import os
import re
import shutil
import socket
import stat
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rt  # noqa: E402

H, FILTER = rt.habitat_from_argv("limits.py HABITAT [FILTER]")
suite = rt.Suite("limits: product arms, tenures, Nudge's parameters, the joint fit, input types", FILTER)
sb = rt.Sandbox("limits")
cwd = sb.mkdir("work")
sb.canary("", "work")
SC = os.path.join(rt.REPO, "Scenarios")
SMALL = ["--people", "60", "--days", "7", "--replications", "1", "--progress", "never", "--threads", "1"]
HEAD = "name: lim\nhorizon_days: 7\nreplications: 1\npopulation:\n  installs: 60\n"
sockets = []  # bound sockets stay open for the part's life


def snap():
    """The sandbox with link counts (rt.snapshot_with_links)."""
    return rt.snapshot_with_links(sb)


changed = rt.changed_except


def write(rel, text):
    return sb.write("work/" + rel, text)


def long_lines(res):
    return [len(l.encode()) for l in res.err.splitlines() if len(l.encode()) > 1024]


def refused(name, args, wants=(), avoid=(), timeout=None):
    """ARGS must be refused: exit 2, a message holding every text of WANTS (regexes) and none of AVOID, lines ≤ 1 KB,
    no library internals, nothing changed."""
    if not suite.wants(name):
        return
    before = snap()
    res = sb.run([H] + args, cwd=cwd, timeout=timeout, name=name)
    p = rt.common_problems(res, {2})
    if not res.err.strip():
        p.append("no message on stderr")
    if res.rc == 2:
        p += [f"the message does not say /{w}/: {res.first_err!r}" for w in wants if not re.search(w, res.err)]
        p += [f"the message says {a!r}: {res.first_err!r}" for a in avoid if a in res.err]
    if long_lines(res):
        p.append(f"stderr lines over 1 KB: {long_lines(res)[:3]} bytes")
    if res.forbidden():
        p.append("library internals: " + " ".join(res.forbidden()))
    diff = changed(before, snap())
    if diff:
        p.append("changed: " + " ".join(diff[:5]))
    if sb.canaries_intact():
        p.append("canaries: " + " ".join(sb.canaries_intact()))
    suite.record(name, p, res.first_err)
    return res


def succeeds(name, args, out=None, check=None, timeout=None):
    """ARGS must exit 0, change nothing outside OUT (relative to work/), and pass CHECK(result) → problems."""
    if not suite.wants(name):
        return None
    before = snap()
    res = sb.run([H] + args, cwd=cwd, timeout=timeout or max(rt.TIMEOUT, 60), name=name)
    p = rt.common_problems(res, {0})
    if long_lines(res):
        p.append(f"stderr lines over 1 KB: {long_lines(res)[:3]} bytes")
    diff = changed(before, snap(), inside=("work/" + out) if out else None)
    if diff:
        p.append("changed outside --out: " + " ".join(diff[:5]))
    if res.rc == 0 and check:
        p += check(res)
    suite.record(name, p, res.first_err or (res.out.splitlines() or [""])[-1])
    return res


# --- products as arms ------------------------------------------------------------------------------------------------

def kpi_products(out):
    """{arm: product} from a run's kpis.csv."""
    with open(os.path.join(cwd, out, "kpis.csv"), newline="") as f:
        return {r["arm"]: r["product"] for r in csv.DictReader(f)}


def arms_are(out, want):
    def check(_):
        try:
            got = kpi_products(out)
        except OSError as e:
            return [f"kpis.csv unreadable: {e}"]
        return [] if got == want else [f"arms and products {got}, expected {want}"]
    return check


write("arms-products.yaml", HEAD + "products: [scroll-off, nudge, earned-access, none]\n")
succeeds("arms-products-every-engine-and-none", ["run", "arms-products.yaml", "--out", "r-arms"] + SMALL, out="r-arms",
         check=arms_are("r-arms", {"scroll-off": "scroll-off", "nudge": "nudge", "earned-access": "earned-access", "none": "none"}))
write("arms-none.yaml", HEAD + "products: [none]\n")
succeeds("arms-products-none-alone", ["run", "arms-none.yaml", "--out", "r-none"] + SMALL, out="r-none",
         check=arms_are("r-none", {"none": "none"}))
write("arms-same.yaml", HEAD + "arms:\n  - name: a\n    product: nudge\n  - name: b\n    product: nudge\n    tenure_days: 3\n")
succeeds("arms-one-product-twice", ["run", "arms-same.yaml", "--out", "r-same"] + SMALL, out="r-same",
         check=arms_are("r-same", {"a": "nudge", "b": "nudge"}))
write("arms-dup.yaml", HEAD + "products: [nudge, none, nudge]\n")
refused("arms-products-duplicate", ["validate", "arms-dup.yaml"], [r"arms-dup\.yaml:6:\d+: error: products\[2\]: duplicate 'nudge'"])
# Clavis was the last planned product (registered, no engine) until issue 44 built it: it now runs as the scenario's
# product and as an arm. A product no engine serves is refused like any unknown value — at its key, with every other
# problem, by validate and run, in `products:`, as a sweep value and by `bench run --product` — naming the products
# there are (the planned-product message itself is covered by ScenarioFormatTests with a fixture's planned product).
write("arms-clavis.yaml", HEAD + "arms:\n  - name: a\n    product: clavis\n  - name: b\n    product: none\n")
succeeds("arms-clavis-built", ["run", "arms-clavis.yaml", "--out", "r-clavis"] + SMALL, out="r-clavis",
         check=arms_are("r-clavis", {"a": "clavis", "b": "none"}))
write("arms-unknown.yaml", HEAD + "arms:\n  - name: a\n    product: zeta\n  - name: b\n    horizon_days: 5\n"
      "  - name: c\n    product: nudge\n    tenure_days: 0\n")
for cmd in (["validate"], ["run", "--out", "r-unknown"] + SMALL):
    refused(f"arms-unknown-on-arm-with-others-{cmd[0]}", cmd[:1] + ["arms-unknown.yaml"] + cmd[1:],
            [r"arms-unknown\.yaml:8:14: error: arms\[0\]\.product: 'zeta' is not allowed; allowed one of scroll-off, nudge, lazuri, earned-access, clavis, none",
             r"arms-unknown\.yaml:10:5: error: arms\[1\]\.horizon_days: unknown key",
             r"arms-unknown\.yaml:13:18: error: arms\[2\]\.tenure_days: value 0 is out of range; allowed an integer in 1…3650",
             r"3 errors in arms-unknown\.yaml"])
write("arms-unknown-top.yaml", "product: zeta\n" + HEAD)
refused("arms-unknown-scenario-product", ["validate", "arms-unknown-top.yaml"],
        [r"arms-unknown-top\.yaml:1:10: error: product: 'zeta' is not allowed; allowed one of scroll-off, nudge, lazuri, earned-access, clavis, none"])
write("arms-unknown-list.yaml", HEAD + "products: [nudge, lazuri, zeta]\n")
refused("arms-unknown-in-products", ["run", "arms-unknown-list.yaml", "--out", "r-ul"] + SMALL,
        [r"arms-unknown-list\.yaml:6:\d+: error: products\[2\]: 'zeta' is not allowed"])
write("arms-unknown-sweep.yaml", HEAD + "sweep:\n  product: [nudge, zeta]\n")
refused("arms-unknown-sweep-value", ["validate", "arms-unknown-sweep.yaml"],
        [r"arms-unknown-sweep\.yaml:7:\d+: error: sweep\.product\[1\]: 'zeta' is not allowed"])
refused("arms-unknown-bench-product", ["bench", "run", "--product", "zeta", "--people", "5", "--days", "2", "--progress", "never"],
        [r"zeta"])


def arms_file(n, rel, body=""):
    write(rel, HEAD + body + "arms:\n" + "".join(f"  - name: a{i}\n    product: {'none' if i % 2 else 'nudge'}\n" for i in range(n)))


arms_file(1000, "arms-1000.yaml")
arms_file(1001, "arms-1001.yaml")
succeeds("arms-1000-validate", ["validate", "arms-1000.yaml"])
for cmd in (["validate"], ["run", "--out", "r-1001"] + SMALL):
    refused(f"arms-1001-{cmd[0]}", cmd[:1] + ["arms-1001.yaml"] + cmd[1:],
            [r"arms-1001\.yaml:6:1: error: arms: the arm list has 1001 arms", r"allowed at most 1000 arms"], avoid=["sweep has"])
refused("arms-1000-trace-unknown-arm", ["trace", "arms-1000.yaml", "--person", "0", "--arm", "nope"],
        [r"--arm: no arm named 'nope'; arms: a0, a1, ", r"… and \d+ more"])
succeeds("arms-1001-allow-large-validate", ["validate", "arms-1001.yaml", "--allow-large"])
write("arms-products-1001.yaml", HEAD + "products: [" + ", ".join(["none"] * 1001) + "]\n")
refused("arms-products-1001-entries", ["validate", "arms-products-1001.yaml"], [r"products: the product list has 1001 entries"],
        avoid=["sweep has"])

# --- tenures ---------------------------------------------------------------------------------------------------------

write("ten-1.yaml", HEAD + "product: nudge\ntenure_days: 1\n")
write("ten-max.yaml", HEAD + "product: nudge\ntenure_days: 3650\n")
succeeds("tenure-at-1-runs", ["run", "ten-1.yaml", "--out", "r-ten1"] + SMALL, out="r-ten1")
succeeds("tenure-at-3650-runs", ["run", "ten-max.yaml", "--out", "r-tenmax"] + SMALL, out="r-tenmax")
for label, value, why in [("0", "0", "value 0 is out of range"), ("3651", "3651", "value 3651 is out of range"),
                          ("negative", "-1", "value -1 is out of range"), ("fraction", "1.5", "expected an integer, got '1.5'"),
                          ("text", "week", "expected an integer, got 'week'"), ("huge", "1e400", "expected an integer, got '1e400'")]:
    write(f"ten-{label}.yaml", HEAD + f"product: nudge\ntenure_days: {value}\n")
    refused(f"tenure-{label}", ["run", f"ten-{label}.yaml", "--out", "r-ten"] + SMALL,
            [rf"ten-{label}\.yaml:7:14: error: tenure_days: {re.escape(why)}; allowed an integer in 1…3650"])
write("ten-arm.yaml", HEAD + "arms:\n  - name: a\n    product: earned-access\n    tenure_days: 3651\n")
refused("tenure-arm-past-max", ["validate", "ten-arm.yaml"], [r"ten-arm\.yaml:9:18: error: arms\[0\]\.tenure_days: value 3651 is out of range"])
refused("tenure-set-0", ["run", "ten-1.yaml", "--set", "tenure_days=0", "--out", "r-ten"] + SMALL,
        [r"<command line>: error: tenure_days: value 0 is out of range; allowed an integer in 1…3650"])
write("ten-sweep.yaml", HEAD + "product: nudge\nsweep:\n  tenure_days: [1, 3650, 3651]\n")
refused("tenure-sweep-past-max", ["validate", "ten-sweep.yaml"], [r"ten-sweep\.yaml:8:\d+: error: sweep\.tenure_days\[2\]: value 3651"])

# --- Nudge's rule parameters at and past their limits -----------------------------------------------------------------

NUDGE_INT = {  # key: (min, max), as NudgeParameters.catalogue declares them
    "limits.free_dumps_per_day": (0, 50), "limits.free_saved_shares": (0, 100), "recording.cap_seconds": (10, 300),
    "capture.single_item_max_words": (1, 50), "nudges.max_per_day": (0, 10), "nudges.quiet_start_hour": (0, 23),
    "nudges.quiet_end_hour": (0, 23), "nudges.stale_hours": (1, 720), "nudges.stale_hour": (0, 23),
    "nudges.end_of_day_hour": (0, 23), "snooze.later_today_hours": (1, 12), "snooze.tomorrow_hour": (0, 23),
    "snooze.weekend_hour": (0, 23), "snooze.next_week_hour": (0, 23), "trial_days": (0, 30),
    "ai.split_tokens_in": (0, 100000), "ai.split_tokens_out": (0, 100000), "ai.draft_tokens_in": (0, 100000),
    "ai.draft_tokens_out": (0, 100000), "ai.prompt_overhead_tokens": (0, 10000), "paywall.draft_teasers_per_day": (0, 50),
    "live_activity.restart_hours": (1, 24), "energy.share_ingest_seconds": (0, 60),
}
# key: (min, max, just below, just above, the range as messages write it: whole numbers as 0.0)
NUDGE_NUM = {"prices.monthly": ("0.99", "99.99", "0.98", "100", "0.99…99.99"), "prices.annual": ("9.99", "999.99", "9.98", "1000", "9.99…999.99"),
             "ai.price_in_per_million": ("0", "100", "-0.01", "100.01", "0.0…100.0"),
             "ai.price_out_per_million": ("0", "100", "-0.01", "100.01", "0.0…100.0")}


def nudge_file(rel, rules, extra=""):
    write(rel, HEAD + "product: nudge\n" + extra + "rules:\n" + "".join(f"  {k}: {v}\n" for k, v in rules.items()))


for key, (lo, hi) in NUDGE_INT.items():
    for side, value in (("min", lo), ("max", hi)):
        nudge_file(f"nu-at-{side}-{key}.yaml", {key: value})
        succeeds(f"nudge-at-{side}-{key}", ["run", f"nu-at-{side}-{key}.yaml", "--out", f"r-nu-{side}-{key}"] + SMALL, out=f"r-nu-{side}-{key}")
    for side, value in (("min", lo - 1), ("max", hi + 1)):
        nudge_file(f"nu-past-{side}-{key}.yaml", {key: value})
        refused(f"nudge-past-{side}-{key}", ["run", f"nu-past-{side}-{key}.yaml", "--out", "r-nu-past"] + SMALL,
                [rf"nu-past-{side}-{re.escape(key)}\.yaml:8:\d+: error: rules\.{re.escape(key)}: value {value} is out of range; "
                 rf"allowed an integer in {lo}…{hi}"])
for key, (lo, hi, below, above, shown) in NUDGE_NUM.items():
    for side, value in (("min", lo), ("max", hi)):
        nudge_file(f"nu-at-{side}-{key}.yaml", {key: value})
        succeeds(f"nudge-at-{side}-{key}", ["run", f"nu-at-{side}-{key}.yaml", "--out", f"r-nu-{side}-{key}"] + SMALL, out=f"r-nu-{side}-{key}")
    for side, value in (("min", below), ("max", above)):
        nudge_file(f"nu-past-{side}-{key}.yaml", {key: value})
        refused(f"nudge-past-{side}-{key}", ["run", f"nu-past-{side}-{key}.yaml", "--out", "r-nu-past"] + SMALL,
                [rf"error: rules\.{re.escape(key)}: value {re.escape(value)} is out of range; allowed a number in {re.escape(shown)}"])
nudge_file("nu-choice.yaml", {"limits.share_limit_mode": "forever"})
refused("nudge-past-choice-limits.share_limit_mode", ["validate", "nu-choice.yaml"],
        [r"nu-choice\.yaml:8:\d+: error: rules\.limits\.share_limit_mode: 'forever' is not allowed; allowed one of open, lifetime"])
refused("nudge-past-max-set-nudges.max_per_day", ["run", "ten-1.yaml", "--set", "rules.nudges.max_per_day=11", "--out", "r-nu-past"] + SMALL,
        [r"<command line>: error: rules\.nudges\.max_per_day: value 11 is out of range; allowed an integer in 0…10"])


def traces(out):
    """Every row of every trace-<arm>-person-N.csv in OUT, each as a dict with `person` added."""
    rows = []
    for path in sorted(glob.glob(os.path.join(cwd, out, "trace-*-person-*.csv"))):
        person = path.rsplit("-", 1)[1][:-4]
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                r["person"] = person
                rows.append(r)
    return rows


def engine(rows, event):
    """The engine rows whose detail starts with EVENT."""
    return [r for r in rows if r["kind"] == "engine" and r["detail"].split(" ", 1)[0] == event]


def per_day(rows):
    counts = {}
    for r in rows:
        k = (r["person"], r["local_time"][:10])
        counts[k] = counts.get(k, 0) + 1
    return counts


def quiet(hour, start, end):
    """NudgeEngine.isQuiet: [start, end) local hours, wrapping past midnight; start == end: never quiet."""
    if start == end:
        return False
    return start <= hour < end if start < end else (hour >= start or hour < end)


def trace_case(name, rules, invariant):
    """A run of Nudge at RULES with every person traced; INVARIANT(rows) → problems (seed 001's rules at the limits)."""
    if not suite.wants(name):
        return
    rel = f"{name}.yaml"
    nudge_file(rel, rules, extra="outputs:\n  trace_people: [" + ", ".join(map(str, range(60))) + "]\n")
    out = f"r-{name}"

    def check(_):
        rows = traces(out)
        if len(glob.glob(os.path.join(cwd, out, "trace-*-person-*.csv"))) != 60:
            return ["not every person traced (60 trace files expected)"]
        return invariant(rows)
    succeeds(name, ["run", rel, "--out", out] + SMALL, out=out, check=check)


def cap_holds(cap, need_some):
    def inv(rows):
        sent = engine(rows, "nudge_sent")
        over = {k: n for k, n in per_day(sent).items() if n > cap}
        p = [f"more than {cap} nudges on a day: {list(over.items())[:3]}"] if over else []
        if need_some and not sent:
            p.append("no nudge_sent at all: the invariant was not exercised")
        return p
    return inv


def quiet_holds(start, end):
    def inv(rows):
        sent = engine(rows, "nudge_sent")
        bad = [r["local_time"] for r in sent if quiet(int(r["local_time"][11:13]), start, end)]
        p = [f"nudges sent in quiet hours {start}–{end}: {bad[:3]}"] if bad else []
        if not sent:
            p.append("no nudge_sent at all: the invariant was not exercised")
        return p
    return inv


def recording_holds(cap):
    def inv(rows):
        dumps = engine(rows, "brain_dump_completed")
        secs = [int(re.search(r"seconds=(\d+)", r["detail"]).group(1)) for r in dumps]
        p = [f"recordings longer than {cap} s: {[s for s in secs if s > cap][:3]}"] if any(s > cap for s in secs) else []
        if not dumps:
            p.append("no brain_dump_completed at all: the invariant was not exercised")
        return p
    return inv


def free_dumps_hold(cap):
    def inv(rows):
        free = [r for r in engine(rows, "brain_dump_completed") if r["plan"] == "free"]
        over = {k: n for k, n in per_day(free).items() if n > cap}
        p = [f"more than {cap} Free brain dumps on a day: {list(over.items())[:3]}"] if over else []
        if cap == 0 and not engine(rows, "brain_dump_limit_hit"):
            p.append("no brain_dump_limit_hit: the cap of 0 was never met")
        return p
    return inv


def no_free_shares(rows):
    saved = [r for r in engine(rows, "share_saved") if r["plan"] == "free"]
    return [f"shares saved on Free with a cap of 0: {[r['local_time'] for r in saved][:3]}"] if saved else []


# Seed 001 §4 Feature 5 "Max 3 nudges per day" (nudges.max_per_day 0…10)
trace_case("nudge-trace-max-per-day-0-sends-none", {"nudges.max_per_day": 0}, cap_holds(0, False))
trace_case("nudge-trace-max-per-day-10-at-most-10", {"nudges.max_per_day": 10}, cap_holds(10, True))
# Seed 001 §4 Feature 5 "Never after 9pm. Never before 8am" (nudges.quiet_start_hour / quiet_end_hour 0…23)
trace_case("nudge-trace-quiet-0-to-23-only-at-23", {"nudges.quiet_start_hour": 0, "nudges.quiet_end_hour": 23}, quiet_holds(0, 23))
trace_case("nudge-trace-quiet-23-to-0-none-at-23", {"nudges.quiet_start_hour": 23, "nudges.quiet_end_hour": 0}, quiet_holds(23, 0))
# Seed 001 §4 Feature 1 "Cap recording at 55 seconds" (recording.cap_seconds 10…300)
trace_case("nudge-trace-recording-cap-10", {"recording.cap_seconds": 10}, recording_holds(10))
trace_case("nudge-trace-recording-cap-300", {"recording.cap_seconds": 300}, recording_holds(300))
# Seed 001 §4 Feature 1 "Free tier limit | 3 brain dumps per day" (limits.free_dumps_per_day 0…50)
trace_case("nudge-trace-free-dumps-0", {"limits.free_dumps_per_day": 0}, free_dumps_hold(0))
trace_case("nudge-trace-free-dumps-50", {"limits.free_dumps_per_day": 50}, free_dumps_hold(50))
# Seed 001 §4 Feature 2 "Free tier limit | 5 saved items" (limits.free_saved_shares 0…100)
trace_case("nudge-trace-free-shares-0-saves-none", {"limits.free_saved_shares": 0}, no_free_shares)

# --- the joint fit ---------------------------------------------------------------------------------------------------

for f in ("scroll-off-baseline.yaml", "earned-access-baseline.yaml", "nudge-baseline.yaml"):
    shutil.copy(os.path.join(SC, f), os.path.join(cwd, f))
JOINT = ["calibrate", "scroll-off-baseline.yaml", "--also", "earned-access-baseline.yaml", "--also", "nudge-baseline.yaml",
         "--people", "20", "--days", "3", "--replications", "1", "--budget", "2", "--threads", "1"]
FIT = ["--fit", "behavior.churn.base_hazard"]
TARGETS = {
    "t-unknown.csv": "figure,low,high\nnope_figure,0.1,0.2\n",
    "t-product.csv": "figure,low,high\nclavis:retention_d1,0.1,0.2\n",
    "t-unprefixed.csv": "figure,low,high\nretention_d1,0.1,0.2\n",
    "t-header.csv": "figure,lo,high\nnudge:retention_d1,0.1,0.2\n",
    "t-lowhigh.csv": "figure,low,high\nnudge:retention_d1,0.3,0.2\n",
    "t-twice.csv": "figure,low,high\nnudge:retention_d1,0.1,0.2\nnudge:retention_d1,0.1,0.2\n",
    "t-nan.csv": "figure,low,high\nnudge:retention_d1,nan,0.2\n",
    "t-weight.csv": "figure,low,high,weight\nnudge:retention_d1,0.1,0.2,0\n",
    "t-empty.csv": "",
    "t-ok.csv": "figure,low,high\nnudge:retention_d1,0.1,0.2\n",
}
for rel, text in TARGETS.items():
    write(rel, text)
os.mkfifo(os.path.join(cwd, "t-fifo.csv"))
for name, rel, wants in [
        ("joint-unknown-target", "t-unknown.csv", [r"t-unknown\.csv:2: figure: unknown world-check figure 'nope_figure'", r"… and \d+ more"]),
        ("joint-unknown-product", "t-product.csv", [r"t-product\.csv:2: figure: 'clavis:retention_d1' names product 'clavis', which is not in this joint fit"]),
        ("joint-target-without-product", "t-unprefixed.csv", [r"t-unprefixed\.csv:2: figure: unknown world-check figure 'retention_d1'"]),
        ("joint-targets-bad-header", "t-header.csv", [r"t-header\.csv:1: header is 'figure,lo,high'"]),
        ("joint-targets-low-above-high", "t-lowhigh.csv", [r"t-lowhigh\.csv:2: low 0\.3 is above high 0\.2"]),
        ("joint-targets-twice", "t-twice.csv", [r"t-twice\.csv:3: figure: 'nudge:retention_d1' is listed twice"]),
        ("joint-targets-nan", "t-nan.csv", [r"t-nan\.csv:2: low: 'nan' is not a finite number"]),
        ("joint-targets-zero-weight", "t-weight.csv", [r"t-weight\.csv:2: weight: 0 is not positive"]),
        ("joint-targets-empty", "t-empty.csv", [r"t-empty\.csv"]),
        ("joint-targets-fifo", "t-fifo.csv", [r"t-fifo\.csv", r"named pipe"]),
        ("joint-targets-missing", "t-none.csv", [r"t-none\.csv"]),
        ("joint-targets-folder", ".", [r"\."])]:
    refused(name, JOINT + FIT + ["--targets", rel, "--out", "cal-x"], wants)
refused("joint-fit-unknown-behavior-key", JOINT + ["--fit", "behavior.nope", "--targets", "t-ok.csv", "--out", "cal-x"],
        [r"--fit: unknown behaviour parameter 'behavior\.nope'"])
refused("joint-fit-rules-key", JOINT + ["--fit", "rules.nudges.max_per_day", "--targets", "t-ok.csv", "--out", "cal-x"],
        [r"--fit: 'rules\.nudges\.max_per_day' is not a behaviour parameter"])
refused("joint-fit-long-key", JOINT + ["--fit", "behavior." + "k" * 5000, "--targets", "t-ok.csv", "--out", "cal-x"], [r"--fit"])
refused("joint-product-twice", JOINT + FIT + ["--also", "nudge-baseline.yaml", "--targets", "t-ok.csv", "--out", "cal-x"],
        [r"--also: a joint fit takes one scenario per product"])
write("zeta.yaml", "product: zeta\n" + HEAD)
refused("joint-unknown-product", JOINT + FIT + ["--also", "zeta.yaml", "--targets", "t-ok.csv", "--out", "cal-x"],
        [r"zeta\.yaml:1:10: error: product: 'zeta' is not allowed; allowed one of"])


def joint_outputs(_):
    p = []
    for f in ("calibration.csv", "identifiability.csv", "fitted-behavior.yaml", "world-check.csv", "manifest.json"):
        path = os.path.join(cwd, "cal-ok", f)
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            p.append(f"{f} missing or empty")
    try:
        with open(os.path.join(cwd, "cal-ok", "world-check.csv"), newline="") as f:
            figures = {r["figure"].split(":", 1)[0] for r in csv.DictReader(f)}
        if figures != {"scroll-off", "earned-access", "nudge"}:
            p.append(f"world-check.csv figures of {sorted(figures)}, expected the three products")
    except (OSError, KeyError) as e:
        p.append(f"world-check.csv unreadable: {e}")
    return p


succeeds("joint-tiny-fit-succeeds", JOINT + FIT + ["--targets", "t-ok.csv", "--out", "cal-ok"], out="cal-ok", check=joint_outputs, timeout=120)

# --- input files of the wrong type: compare and merge ----------------------------------------------------------------

ok = sb.run([H, "run", "--out", "A"] + SMALL, cwd=cwd, name="setup-A")
shards = [sb.run([H, "run", "--shard", f"{k}/2", "--out", f"S{k}"] + SMALL, cwd=cwd, name=f"setup-S{k}") for k in (1, 2)]
if ok.rc != 0 or any(s.rc != 0 for s in shards):
    suite.record("setup-runs", [f"run: {ok.brief()}; shards: {[s.brief() for s in shards]}"])
else:
    def swapped(src, dst, file, kind):
        shutil.copytree(os.path.join(cwd, src), os.path.join(cwd, dst))
        p = os.path.join(cwd, dst, file)
        os.remove(p)
        if kind == "fifo":
            os.mkfifo(p)
        elif kind == "folder":
            os.mkdir(p)
        else:
            s = socket.socket(socket.AF_UNIX)
            s.bind(p)
            sockets.append(s)
    WORDS = {"fifo": "it is a named pipe (FIFO), not a regular file", "folder": "it is a folder, not a file",
             "socket": "it is a socket, not a regular file"}
    for kind, words in WORDS.items():
        swapped("A", f"A-kpis-{kind}", "kpis.csv", kind)
        refused(f"types-compare-kpis-{kind}", ["compare", "A", f"A-kpis-{kind}", "--out", "c.csv"],
                [re.escape(f"A-kpis-{kind}/kpis.csv: {words}")], avoid=["no such file", "not found"])
        swapped("A", f"A-manifest-{kind}", "manifest.json", kind)
        refused(f"types-compare-manifest-{kind}", ["compare", f"A-manifest-{kind}", "A", "--out", "c.csv"],
                [re.escape(f"A-manifest-{kind}/manifest.json: {words}")])
        swapped("S1", f"S1-manifest-{kind}", "manifest.json", kind)
        refused(f"types-merge-manifest-{kind}", ["merge", f"S1-manifest-{kind}", "S2", "--out", "M", "--progress", "never"],
                [re.escape(f"shard 'S1-manifest-{kind}': manifest.json: {words}")], avoid=["no readable manifest.json"])

for s in sockets:
    s.close()
sb.cleanup()
suite.finish()
