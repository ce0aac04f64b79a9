#!/usr/bin/env python3
"""Cross-product compare and check: runs of different products side by side, and baselines of another product.

    RedTeam/extra/products.py HABITAT [FILTER]

Small runs (--people 60 --days 7 --replications 1) of Scroll Off (the default scenario, and again with --seed 7),
Earned Access (Scenarios/earned-access-baseline.yaml), Nudge (Scenarios/nudge-baseline.yaml) and
Scenarios/product-comparison.yaml (whose arms are every product with an engine and `none`), and baselines of Earned
Access and Nudge, all made in a sandbox. Then:

- `compare A B --out X.csv` for every pair of products (runs, and arms of the comparison run, `none` among them):
  exit 0; the first line names both products ("Different products: B is X, A is Y; the N KPIs both report are
  compared."), N being the KPIs both runs' kpis.csv hold; the CSV holds exactly those KPIs, every row naming B's
  product; "paired" only when both runs have the same seed, population and Habitat version (the seed-7 run is
  unpaired with every other; the comparison run's arms are paired); only the CSV is written, no staging left.
- `check SCENARIO --baseline BASELINE-OF-ANOTHER-PRODUCT` (at 20 000 people × 60 days, which would take minutes
  to simulate): exit 2 within 10 s, a message naming both products, nothing written, no staging. Controls: a
  scenario checked against its own product's baseline passes (exit 0).
- A forged manifest.json in a run folder (its product edited, with the scenario hash kept or recomputed): compare
  either refuses (exit 2, a message naming the manifest) or names the products kpis.csv holds; never a crash.
"""
import csv
import json
import os
import shutil
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rt  # noqa: E402

H, FILTER = rt.habitat_from_argv("products.py HABITAT [FILTER]")
suite = rt.Suite("cross-product compare and check", FILTER)
sb = rt.Sandbox("products")
cwd = sb.mkdir("work")
sb.canary("", "work")
SC = os.path.join(rt.REPO, "Scenarios")
SMALL = ["--people", "60", "--days", "7", "--replications", "1", "--progress", "never"]
RUNS = {  # folder: (scenario arguments, its product)
    "so": ([], "scroll-off"),
    "so7": (["--seed", "7"], "scroll-off"),
    "ea": ([os.path.join(SC, "earned-access-baseline.yaml")], "earned-access"),
    "nu": ([os.path.join(SC, "nudge-baseline.yaml")], "nudge"),
    "pc": ([os.path.join(SC, "product-comparison.yaml")], None),
}
BASELINES = {"ea-bl": "ea", "nu-bl": "nu"}

setup = []
for d, (args, _) in RUNS.items():
    r = sb.run([H, "run"] + args + SMALL + ["--out", d], cwd=cwd, timeout=120, name=f"setup-{d}")
    if r.rc != 0:
        setup.append(f"run {d}: {r.brief()}")
for d, src in BASELINES.items():
    r = sb.run([H, "check"] + RUNS[src][0] + SMALL + ["--baseline", d, "--record", "--reason", "red team"], cwd=cwd,
               timeout=120, name=f"setup-{d}")
    if r.rc != 0:
        setup.append(f"record {d}: {r.brief()}")
if setup:
    suite.record("setup", setup)
    suite.finish()


def kpi_rows(folder):
    with open(os.path.join(cwd, folder, "kpis.csv"), newline="") as f:
        return list(csv.DictReader(f))


def arms_of(folder):
    """{arm: (product, {kpi})} from a run's kpis.csv."""
    arms = {}
    for row in kpi_rows(folder):
        product, kpis = arms.setdefault(row["arm"], (row["product"], set()))
        kpis.add(row["kpi"])
    return arms


def manifest(folder):
    with open(os.path.join(cwd, folder, "manifest.json")) as f:
        return json.load(f)


def population(resolved):
    """The resolved scenario's population: block (what decides who the people are)."""
    out, inside = [], False
    for line in resolved.split("\n"):
        if line.startswith("population:"):
            inside = True
        elif inside and line and line[0] not in " -":
            break
        if inside:
            out.append(line)
    return "\n".join(out)


def same_people(a, b):
    ma, mb = manifest(a), manifest(b)
    return (ma["seed"] == mb["seed"] and ma["tool_version"] == mb["tool_version"]
            and population(ma["resolved_scenario"]) == population(mb["resolved_scenario"]))


def fnv1a64(text):
    h = 0xcbf29ce484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def staging_anywhere():
    return [os.path.relpath(os.path.join(d, n), sb.box) for d, dirs, files in os.walk(sb.box)
            for n in dirs + files if n.startswith(".") and ".partial-" in n]


def compare_case(name, a, b, arm_a=None, arm_b=None, paired=None):
    """compare A B (or two arms of A) --out NAME.csv: both products named, shared KPIs only, paired as it should."""
    if not suite.wants(name):
        return
    out = f"{name}.csv"
    args = [H, "compare", a] + ([b] if b else []) + (["--arm-a", arm_a] if arm_a else []) + (["--arm-b", arm_b] if arm_b else [])
    before = sb.snapshot()
    res = sb.run(args + ["--out", out], cwd=cwd, name=name)
    problems = rt.common_problems(res, {0})
    arms_a, arms_b = arms_of(a), arms_of(b or a)
    arm_a = arm_a or next(iter(arms_a))
    arm_b = arm_b or (next(iter(arms_b)) if b else list(arms_a)[1])
    (pa, ka), (pb, kb) = arms_a[arm_a], arms_b[arm_b]
    shared = ka & kb
    lines = res.out.splitlines()
    first = lines[0] if lines else ""
    if pa == pb:
        problems.append(f"setup: {arm_a} and {arm_b} are both {pa}")
    if not (first.startswith("Different products:") and f" is {pa}" in first and f" is {pb}" in first):
        problems.append(f"first line does not name both products ({pb}, {pa}): {first[:160]!r}")
    if f"the {len(shared)} KPIs both report are compared" not in first:
        problems.append(f"expected 'the {len(shared)} KPIs both report are compared': {first[:160]!r}")
    want_paired = same_people(a, b or a) if paired is None else paired
    said = next((l for l in lines if " − " in l and ("paired" in l)), "")
    if want_paired != (": paired (" in said):
        problems.append(f"{'paired' if want_paired else 'unpaired'} expected: {said[:160]!r}")
    path = os.path.join(cwd, out)
    if not os.path.isfile(path):
        problems.append(f"--out {out} not written")
    else:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        kpis = {r["kpi"] for r in rows}
        if kpis != shared:
            problems.append(f"CSV KPIs differ from the shared ones: extra {sorted(kpis - shared)[:4]}, missing {sorted(shared - kpis)[:4]}")
        if any(r["product"] != pb for r in rows):
            problems.append(f"a CSV row does not name B's product {pb}")
    changed = rt.Sandbox.diff(before, sb.snapshot())
    if changed != ["+work/" + out]:
        problems.append("changed: " + " ".join(changed[:5]))
    if staging_anywhere():
        problems.append("staging left: " + " ".join(staging_anywhere()[:3]))
    suite.record(name, problems, first)


# Runs of different products, every pair, each way once; the seed-7 run shares no people with the others.
compare_case("compare-scroll-off-earned-access", "so", "ea")
compare_case("compare-earned-access-scroll-off", "ea", "so")
compare_case("compare-scroll-off-nudge", "so", "nu")
compare_case("compare-nudge-earned-access", "nu", "ea")
compare_case("compare-seed7-earned-access-unpaired", "so7", "ea", paired=False)
compare_case("compare-nudge-seed7-unpaired", "nu", "so7", paired=False)
# Arms of one run of several products: the same people, so paired; `none` is a product like the others.
compare_case("compare-arms-none-scroll-off", "pc", None, "none", "scroll-off", paired=True)
compare_case("compare-arms-none-earned-access", "pc", None, "none", "earned-access", paired=True)
compare_case("compare-arms-none-nudge", "pc", None, "none", "nudge", paired=True)
compare_case("compare-arms-nudge-earned-access", "pc", None, "nudge", "earned-access", paired=True)
# A run of one product against an arm of another in the comparison run.
compare_case("compare-run-nudge-arm-none", "nu", "pc", None, "none")


def check_case(name, scenario_args, baseline, product, other):
    """check SCENARIO --baseline BASELINE-OF-ANOTHER-PRODUCT: exit 2 at once, both products named, nothing written."""
    if not suite.wants(name):
        return
    before = sb.snapshot()
    res = sb.run([H, "check"] + scenario_args + ["--baseline", baseline, "--progress", "never", "--people", "20000", "--days", "365"],
                 cwd=cwd, timeout=max(rt.TIMEOUT, 60), name=name)   # simulating first would take many minutes
    problems = rt.refusal_problems(res, {2}, sb, before)
    if not (f"of {other}" in res.err and f"runs {product}" in res.err):
        problems.append(f"message does not name both products ({other}, {product}): {res.first_err!r}")
    if res.wall > 5:
        problems.append(f"took {res.wall:.1f}s: simulated before refusing?")
    if res.forbidden():
        problems.append("library internals: " + ", ".join(res.forbidden()))
    if staging_anywhere():
        problems.append("staging left: " + " ".join(staging_anywhere()[:3]))
    suite.record(name, problems, res.first_err)


SO_FILE = [os.path.join(SC, "scroll-off-baseline.yaml")]  # check with no scenario checks the baseline's own
check_case("check-scroll-off-against-earned-access", SO_FILE, "ea-bl", "scroll-off", "earned-access")
check_case("check-nudge-against-earned-access", RUNS["nu"][0], "ea-bl", "nudge", "earned-access")
check_case("check-earned-access-against-nudge", RUNS["ea"][0], "nu-bl", "earned-access", "nudge")
check_case("check-scroll-off-against-nudge", SO_FILE, "nu-bl", "scroll-off", "nudge")
check_case("check-comparison-against-nudge", RUNS["pc"][0], "nu-bl", "scroll-off", "nudge")

# Controls: a scenario against its own product's baseline passes.
for name, args, baseline in [("control-check-earned-access", RUNS["ea"][0], "ea-bl"), ("control-check-nudge", RUNS["nu"][0], "nu-bl")]:
    if not suite.wants(name):
        continue
    before = sb.snapshot()
    res = sb.run([H, "check"] + args + ["--baseline", baseline, "--progress", "never"], cwd=cwd, timeout=120, name=name)
    problems = rt.common_problems(res, {0})
    changed = rt.Sandbox.diff(before, sb.snapshot())
    if changed:
        problems.append("changed: " + " ".join(changed[:5]))
    suite.record(name, problems, res.out.splitlines()[0] if res.out else "")


def forge(folder, product, rehash):
    """A copy of run FOLDER whose manifest names PRODUCT (its scenario hash kept, or recomputed to match)."""
    copy = f"{folder}-as-{product}-{'rehashed' if rehash else 'hash-kept'}"
    shutil.copytree(os.path.join(cwd, folder), os.path.join(cwd, copy))
    m = manifest(copy)
    lines = m["resolved_scenario"].split("\n")
    lines = [f"product: {product}" if l.startswith("product:") else l for l in lines]
    m["resolved_scenario"] = "\n".join(lines)
    if rehash:
        m["scenario_hash"] = fnv1a64(m["resolved_scenario"])
    with open(os.path.join(cwd, copy, "manifest.json"), "w") as f:
        json.dump(m, f, indent=2)
    return copy


FORGED = [("forged-ea-as-nudge-hash-kept", "ea", "nudge", False, {2}),
          ("forged-ea-as-nudge-rehashed", "ea", "nudge", True, {0, 2}),
          ("forged-ea-as-scroll-off-rehashed", "ea", "scroll-off", True, {0, 2}),
          ("forged-ea-as-lazuri-rehashed", "ea", "lazuri", True, {0, 2}),
          ("forged-ea-as-unknown-rehashed", "ea", "frobnicator", True, {2})]
for name, folder, product, rehash, rcs in FORGED:
    if not suite.wants(name):
        continue
    copy = forge(folder, product, rehash)
    out = f"{name}.csv"
    before = sb.snapshot()
    res = sb.run([H, "compare", "so", copy, "--out", out], cwd=cwd, name=name)
    problems = rt.common_problems(res, rcs)
    changed = rt.Sandbox.diff(before, sb.snapshot())
    if res.rc == 2:
        if "manifest.json" not in res.err and copy not in res.err:
            problems.append(f"refusal does not name the forged folder or its manifest: {res.first_err!r}")
        if changed:
            problems.append("refused but wrote: " + " ".join(changed[:5]))
    elif res.rc == 0:
        # kpis.csv still says earned-access: compare must name the product the KPIs are of, or the manifest's, sanely.
        first = res.out.splitlines()[0] if res.out else ""
        if " is scroll-off" not in first and "Different products" in first:
            problems.append(f"first line lost A's product: {first[:160]!r}")
        if changed != ["+work/" + out]:
            problems.append("changed: " + " ".join(changed[:5]))
    if res.forbidden():
        problems.append("library internals: " + ", ".join(res.forbidden()))
    suite.record(name, problems, res.first_err or (res.out.splitlines()[0] if res.out else ""))

sb.cleanup()
suite.finish()
