#!/usr/bin/env python3
"""Corrupted baselines and run folders fed to `habitat check --baseline COPY` and `habitat compare COPY GOOD`.

    RedTeam/extra/baselines.py HABITAT [FILTER]

In a sandbox (mktemp -d) a copy of Scenarios/premium-price-test.yaml is recorded as a baseline GOOD with
`check … --record --people 100 --days 7 --replications 2`. Each corruption is made on a fresh copy of GOOD.

Strict cases must end with exit 1 or 2 and never print PASS; an exit 2 must name the damaged file (kpis.csv,
manifest.json, baseline.json or the path baseline.json points at) in its message. Every case must finish within
20 s (TIMEOUT) and under 1 GB of resident memory (RSS_MB, at most 1024 here) without crashing. Lenient cases
(compare on a manifest whose scenario text was edited: compare does not re-run anything) only need to finish
cleanly. Two controls come first: an untouched copy must PASS `check` and `compare` must accept it, so a
corruption case cannot pass for a reason unrelated to its corruption without the controls failing too.
"""
import json
import os
import shutil
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rt  # noqa: E402

H, FILTER = rt.habitat_from_argv("baselines.py HABITAT [FILTER]")
suite = rt.Suite("corrupted baselines (check --baseline, compare)", FILTER)
RSS = min(rt.RSS_MB, 1024)
SCEN = "premium-price-test.yaml"

sb = rt.Sandbox("baselines")
cwd = sb.mkdir("work")
sb.canary("", "work")
shutil.copy(os.path.join(rt.REPO, "Scenarios", SCEN), os.path.join(cwd, SCEN))
GOOD = os.path.join(cwd, "GOOD")
rec = sb.run([H, "check", SCEN, "--baseline", "GOOD", "--record", "--reason", "x", "--people", "100", "--days", "7",
              "--replications", "2"], cwd=cwd, name="record")
if rec.rc != 0 or not os.path.isfile(os.path.join(GOOD, "kpis.csv")):
    suite.record("setup-record-good-baseline", [f"check --record failed: {rec.brief()}"])
    sb.cleanup()
    suite.finish()
os.makedirs(os.path.join(cwd, "copies"))
os.mkfifo(os.path.join(cwd, "a-fifo.yaml"))
os.makedirs(os.path.join(cwd, "a-folder.yaml"))
with open(os.path.join(cwd, "x.csv"), "w") as f:  # what ../../x.csv from a copy resolves to
    f.write(open(os.path.join(GOOD, "kpis.csv")).read())
n = 0


def copy():
    global n
    n += 1
    d = os.path.join(cwd, "copies", f"c{n:02d}")
    shutil.copytree(GOOD, d, symlinks=True)
    return d


# ------------------------------------------------------------------ editing helpers
def read(d, f):
    with open(os.path.join(d, f), "rb") as fh:
        return fh.read()


def write(d, f, data):
    rt.replace_file(os.path.join(d, f), data)


def kpi_rows(d):
    text = read(d, "kpis.csv").decode()
    nl = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(nl)
    if lines and lines[-1] == "":
        lines.pop()
    return lines[0].split(","), lines[1:], nl


def put_kpi_rows(d, header, rows, nl):
    write(d, "kpis.csv", nl.join([",".join(header)] + rows) + nl)


def edit_cell(column, value, row_index=0, only_numeric_mean=False):
    def f(d):
        header, rows, nl = kpi_rows(d)
        col = header.index(column)
        i = row_index
        if only_numeric_mean:  # a row that has a mean (some KPIs are empty at 7 days)
            i = next(k for k, r in enumerate(rows) if r.split(",")[header.index("mean")] not in ("",))
        cells = rows[i].split(",")
        cells[col] = value
        rows[i] = ",".join(cells)
        put_kpi_rows(d, header, rows, nl)
    return f


def truncate_mid_line(d):
    data = read(d, "kpis.csv")
    cut = int(len(data) * 0.6)
    while data[cut:cut + 1] in (b"\n", b"\r", b","):
        cut += 1
    write(d, "kpis.csv", data[:cut])


def duplicate_rows(d):
    header, rows, nl = kpi_rows(d)
    put_kpi_rows(d, header, rows + rows[:10], nl)


def duplicate_conflicting(d):
    header, rows, nl = kpi_rows(d)
    m = header.index("mean")
    i = next(k for k, r in enumerate(rows) if r.split(",")[m])
    cells = rows[i].split(",")
    cells[m] = "0.123456"
    rows.insert(i + 1, ",".join(cells))
    put_kpi_rows(d, header, rows, nl)


def nul_bytes(d):
    data = read(d, "kpis.csv")
    write(d, "kpis.csv", data[:300] + b"\x00" * 64 + data[300:])


def make_dir(f):
    def g(d):
        os.remove(os.path.join(d, f))
        os.makedirs(os.path.join(d, f, "inner"))
    return g


def make_link(f, target):
    def g(d):
        os.remove(os.path.join(d, f))
        os.symlink(target, os.path.join(d, f))
    return g


def remove(f):
    return lambda d: os.remove(os.path.join(d, f))


def header_only(d):
    header, rows, nl = kpi_rows(d)
    put_kpi_rows(d, header, [], nl)


def manifest_edit(fn):
    def g(d):
        m = json.loads(read(d, "manifest.json"))
        fn(m)
        write(d, "manifest.json", json.dumps(m, indent=2))
    return g


def resolved_replace(old, new):
    def fn(m):
        assert old in m["resolved_scenario"], old
        m["resolved_scenario"] = m["resolved_scenario"].replace(old, new, 1)  # scenario_hash left as it was
    return manifest_edit(fn)


def files_add(path):
    return manifest_edit(lambda m: m["files"].append(path))


def bj_edit(**kv):
    def g(d):
        b = json.loads(read(d, "baseline.json"))
        b.update(kv)
        write(d, "baseline.json", json.dumps(b, indent=2))
    return g


def raw(f, text):
    return lambda d: write(d, f, text)


def truncate_file(f, frac=0.5):
    return lambda d: write(d, f, read(d, f)[:int(len(read(d, f)) * frac)])


# name, corruption, commands with their strictness, hints the exit-2 message must contain (any of them)
K, M, B = ["kpis.csv"], ["manifest.json"], ["baseline.json"]
CASES = [
    ("kpis-truncated-mid-line", truncate_mid_line, "SS", K),
    ("kpis-replication-2000000000", edit_cell("replication", "2000000000", 5), "SS", K),
    ("kpis-replication-int64-max", edit_cell("replication", "9223372036854775807", 7), "SS", K),
    ("kpis-replication-negative", edit_cell("replication", "-3", 2), "SS", K),
    ("kpis-mean-inf", edit_cell("mean", "inf", only_numeric_mean=True), "SS", K),
    ("kpis-mean-nan", edit_cell("mean", "nan", only_numeric_mean=True), "SS", K),
    ("kpis-mean-1e999", edit_cell("mean", "1e999", only_numeric_mean=True), "SS", K),
    ("kpis-duplicated-rows", duplicate_rows, "SS", K),
    ("kpis-duplicate-row-other-value", duplicate_conflicting, "SS", K),
    ("kpis-nul-bytes", nul_bytes, "SS", K),
    ("kpis-is-a-folder", make_dir("kpis.csv"), "SS", K),
    ("kpis-symlink-to-dev-zero", make_link("kpis.csv", "/dev/zero"), "SS", K),
    ("kpis-header-only", header_only, "SS", K),
    ("kpis-missing", remove("kpis.csv"), "SS", K),
    ("manifest-product-edited-hash-kept", resolved_replace("product: scroll-off", "product: nudge"), "SL", M),
    ("manifest-horizon-edited-hash-kept", resolved_replace("horizon_days: 7", "horizon_days: 8"), "SL", M),
    ("manifest-price-edited-hash-kept", resolved_replace("premium_monthly: 5.99", "premium_monthly: 6.99"), "SL", M),
    ("manifest-resolved-garbage-hash-kept", manifest_edit(lambda m: m.update(resolved_scenario=": : [unclosed")), "SL", M),
    ("manifest-files-parent-traversal", files_add("../../x.csv"), "SL", M + ["x.csv"]),
    ("manifest-files-absolute-path", files_add("/etc/hostname"), "SL", M + ["hostname"]),
    ("manifest-files-nested-traversal", files_add("plots/../../../x.csv"), "SL", M + ["x.csv"]),
    ("manifest-files-missing-file", files_add("ghost.csv"), "SL", M + ["ghost.csv"]),
    ("manifest-truncated", truncate_file("manifest.json"), "SS", M),
    ("manifest-empty-object", raw("manifest.json", "{}"), "SS", M),
    ("manifest-array", raw("manifest.json", "[]"), "SS", M),
    ("manifest-is-a-folder", make_dir("manifest.json"), "SS", M),
    ("manifest-symlink-to-dev-zero", make_link("manifest.json", "/dev/zero"), "SS", M),
    ("manifest-replications-2000000000", manifest_edit(lambda m: m.update(replications=2000000000)), "LL", M),
    ("manifest-seed-negative", manifest_edit(lambda m: m.update(seed=-1)), "LL", M),
    ("baseline-json-seed-negative", bj_edit(seed=-1), "S-", B),
    ("baseline-json-people-negative", bj_edit(people=-5), "S-", B),
    ("baseline-json-people-1e12", bj_edit(people=10 ** 12), "S-", B),
    ("baseline-json-days-zero", bj_edit(days=0), "S-", B),
    ("baseline-json-days-99999", bj_edit(days=99999), "S-", B),
    ("baseline-json-replications-zero", bj_edit(replications=0), "S-", B),
    ("baseline-json-replications-1000000", bj_edit(replications=1000000), "S-", B),
    ("baseline-json-people-string", bj_edit(people="100"), "S-", B),
    ("baseline-json-scenario-dev-zero", bj_edit(scenario_file="/dev/zero"), "S-", B + ["/dev/zero"]),
    ("baseline-json-scenario-folder", bj_edit(scenario_file="a-folder.yaml"), "S-", B + ["a-folder.yaml"]),
    ("baseline-json-scenario-fifo", bj_edit(scenario_file="a-fifo.yaml"), "S-", B + ["a-fifo.yaml"]),
    ("baseline-json-scenario-missing", bj_edit(scenario_file="no-such-scenario.yaml"), "S-", B + ["no-such-scenario.yaml"]),
    ("baseline-json-truncated", truncate_file("baseline.json", 0.4), "S-", B),
    ("baseline-json-array", raw("baseline.json", "[1, 2]"), "S-", B),
    ("baseline-json-missing", remove("baseline.json"), "S-", B),
]


def judge(name, res, strict, hints):
    problems = rt.common_problems(res, {1, 2} if strict else {0, 1, 2})
    text = res.out + res.err
    if strict and res.rc == 0:
        problems = [p for p in problems if not p.startswith("exit 0")]
        problems.append("exit 0" + (" with PASS" if "PASS" in res.out else "") + ": the corruption went unnoticed")
    if strict and res.rc in (1, 2) and "PASS" in res.out:
        problems.append("printed PASS")
    if strict and res.rc == 2 and not any(h in text for h in hints):
        problems.append(f"the message does not name {' or '.join(hints)}: {res.first_err!r}")
    if res.rc in (1, 2) and not text.strip():
        problems.append("no message")
    suite.record(name, problems, f"exit {res.rc} {res.wall:.1f}s {res.rss}MB: " + (res.first_err or res.out.strip()[:100]))


def check(d, tag):
    return sb.run([H, "check", "--baseline", d, "--progress", "never"], cwd=cwd, rss_mb=RSS, name=tag)


def compare(d, tag):
    out = os.path.join(cwd, f"cmp-{tag}.csv")
    return sb.run([H, "compare", d, "GOOD", "--out", out], cwd=cwd, rss_mb=RSS, name=tag + "-cmp")


# ------------------------------------------------------------------ controls
if suite.wants("control-untouched-copy-check"):
    r = check(copy(), "control")
    p = rt.common_problems(r, {0})
    if r.rc == 0 and "PASS" not in r.out:
        p.append("exit 0 without PASS")
    suite.record("control-untouched-copy-check", p, r.out.strip()[:120])
if suite.wants("control-untouched-copy-compare"):
    r = compare(copy(), "control")
    suite.record("control-untouched-copy-compare", rt.common_problems(r, {0}), f"exit {r.rc}")

# ------------------------------------------------------------------ corruptions
for name, corrupt, modes, hints in CASES:
    for cmd, mode in zip(("check", "compare"), modes):
        case = f"{name}:{cmd}"
        if mode == "-" or not suite.wants(case):
            continue
        d = copy()
        corrupt(d)
        res = check(d, name) if cmd == "check" else compare(d, name)
        judge(case, res, mode == "S", hints)
        shutil.rmtree(d, ignore_errors=True)

lost = sb.canaries_intact()
if lost:
    suite.record("canaries", ["lost: " + " ".join(lost)])
if not os.path.isfile(os.path.join(cwd, "x.csv")):
    suite.record("outside-files", ["x.csv (outside every copy) was removed"])
sb.cleanup()
suite.finish()
