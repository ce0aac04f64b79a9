#!/usr/bin/env python3
"""Hostile inputs to the page writer: `python3 Notebooks/report_page.py` on damaged copies of a small real run.

    RedTeam/extra/pagewriter.py HABITAT [FILTER]

In a sandbox (mktemp -d) a copy of Scenarios/premium-price-test.yaml is run with HABITAT (60 people, 7 days, 1
replication, its arms), its arms compared (`compare RUN --out cmp.csv`) and a baseline recorded and checked
(`check --out chk.csv`). Three controls first: an untouched copy of each gets its page (exit 0).

Then each case damages a fresh copy of one file — every CSV the run holds, manifest.json, the comparison and the
check CSV — in one of the ways a careless or hostile user might: 0 bytes, header only (where every run writes
rows), NULs, gzip, an unclosed quote, a stray quote, a Latin-1 byte, another file's columns, a row short of fields,
a word / nan / inf / 1e400 / a 30-digit number where a number goes, a word where true/false goes, a folder, a FIFO
or a dangling link in the file's place; manifest.json empty, not JSON, a list, a string, wrong types, a negative
count, deep nesting, a folder; a run folder that does not exist or is a file; a destination that cannot be written
(a file limit that fills the "disk" mid-page, an immutable folder where chattr works, a report.html that is a
folder, a link or someone else's file).

Each must exit 2 with exactly one stderr line, `report_page: …` naming the damaged file (or folder), no Python
traceback, within TIMEOUT; and the sandbox must be unchanged: no page, no temporary file, every canary and every
file of the user's byte-identical.

The cases run in one long-lived Python process (lib/pagewriter_batch.py, issue 41): the page writer is imported once
and each case's command line is run in it through `report_page.main(argv)`, with its own stdout, stderr, exit status,
working directory and watchdog (TIMEOUT, RSS_MB: a case past either kills the worker, fails, and the next case starts
a new one). The two file-size-limit cases run as processes of their own; PAGEWRITER_BATCH=0 runs every case so.
"""
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rt  # noqa: E402
import pagewriter_batch  # noqa: E402

H, FILTER = rt.habitat_from_argv("pagewriter.py HABITAT [FILTER]")
suite = rt.Suite("page writer (report_page.py on damaged runs)", FILTER)
PAGE = os.path.join(rt.REPO, "Notebooks", "report_page.py")
PY = sys.executable
SCEN = "premium-price-test.yaml"
TIMEOUT = max(rt.TIMEOUT, 30)   # a page takes a few seconds (pandas, plotly)

sb = rt.Sandbox("pagewriter")
cwd = sb.mkdir("work")
shutil.copy(os.path.join(rt.REPO, "Scenarios", SCEN), os.path.join(cwd, SCEN))
SIZE = ["--people", "60", "--days", "7", "--replications", "1"]
setup = [sb.run([H, "run", SCEN, *SIZE, "--progress", "never", "--out", "GOOD"], cwd=cwd, name="run"),
         sb.run([H, "compare", "GOOD", "--out", "cmp.csv"], cwd=cwd, name="compare"),
         sb.run([H, "check", SCEN, "--baseline", "BL", "--record", "--reason", "red team", *SIZE], cwd=cwd,
                name="record"),
         sb.run([H, "check", "--baseline", "BL", "--out", "chk.csv"], cwd=cwd, name="check")]
GOOD = os.path.join(cwd, "GOOD")
if any(r.rc != 0 for r in setup) or not os.path.isfile(os.path.join(GOOD, "kpis.csv")):
    suite.record("setup-run-compare-check", [f"setup failed: {[r.brief() for r in setup]}"])
    sb.cleanup()
    suite.finish()
shutil.rmtree(os.path.join(cwd, "BL"))
os.makedirs(os.path.join(cwd, "copies"))
sb.canary("", "work", "work/copies")
CSVS = sorted(f for f in os.listdir(GOOD) if f.endswith(".csv"))
n = 0


def fresh_run():
    global n
    n += 1
    d = os.path.join(cwd, "copies", f"r{n:02d}")
    shutil.copytree(GOOD, d, symlinks=True)
    return d


def fresh_csv(source):
    global n
    n += 1
    d = sb.mkdir("work", "copies", f"c{n:02d}")
    p = os.path.join(d, source)
    shutil.copy(os.path.join(cwd, source), p)
    return p


# The cases run in one long-lived Python process (lib/pagewriter_batch.py: the page writer imported once, each case's
# command line run in-process with its own stdout/stderr, exit status, working directory and watchdog), except those
# that need a process of their own: `wrap`ped ones (a file-size limit, RLIMIT_FSIZE with SIGXFSZ ignored, is the
# process's and would limit the worker's every later write). PAGEWRITER_BATCH=0 runs every case as a process.
batch = pagewriter_batch.Batch(sb, PY) if os.environ.get("PAGEWRITER_BATCH", "1") != "0" else None
processes = 0


def page(target, name, wrap=None):
    global processes
    cmd = [PY, PAGE, target]
    # matplotlib's cache outside the box (it is not the user's), no bytecode written into the checkout
    env = {"MPLCONFIGDIR": os.path.join(sb.logs, "matplotlib"), "PYTHONDONTWRITEBYTECODE": "1"}
    if batch is not None and wrap is None:
        return batch.run([target], cwd=cwd, timeout=TIMEOUT, rss_mb=rt.RSS_MB, env=env, name=name)
    processes += 1
    return sb.run(wrap(cmd) if wrap else cmd, cwd=cwd, timeout=TIMEOUT, name=name, env=env)


# --- controls: an untouched copy of each gets its page -------------------------------------------------------------
for name, make, out in [("control-run-page", fresh_run, lambda t: os.path.join(t, "report.html")),
                        ("control-comparison-page", lambda: fresh_csv("cmp.csv"), lambda t: t[:-4] + ".html"),
                        ("control-check-page", lambda: fresh_csv("chk.csv"), lambda t: t[:-4] + ".html")]:
    if not suite.wants(name):
        continue
    target = make()
    res = page(target, name)
    problems = rt.common_problems(res, {0})
    written = out(target)
    if not os.path.isfile(written) or b'content="habitat report page"' not in open(written, "rb").read(4096):
        problems.append(f"no page at {os.path.basename(written)}")
    suite.record(name, problems, res.out.strip().splitlines()[-1][:120] if res.out.strip() else "")
    shutil.rmtree(os.path.dirname(written)) if make is not fresh_run else shutil.rmtree(target)


# --- damage --------------------------------------------------------------------------------------------------------
def text(p):
    with open(p, encoding="utf-8") as f:
        return f.read()


def lines(p):
    return text(p).split("\n")


def cell_edit(p, value, column=None):
    """Replaces the first row's cell in COLUMN (else the first column of numbers) with VALUE."""
    ls = lines(p)
    head, row = ls[0].split(","), ls[1].split(",")
    if column is None:
        column = next(h for h, c in zip(head, row) if c.replace(".", "").replace("-", "").isdigit() and h != "replication")
    row[head.index(column)] = value
    ls[1] = ",".join(row)
    return "\n".join(ls)


def quote(p, stray):
    ls = lines(p)
    row = ls[1].split(",")
    row[4] = (row[4][:1] + '"' + row[4][1:]) if stray else '"' + row[4]
    ls[1] = ",".join(row)
    return "\n".join(ls)


def fifo(p):
    os.remove(p)
    os.mkfifo(p)


def folder(p):
    os.remove(p)
    os.mkdir(p)


def dangling(p):
    os.remove(p)
    os.symlink(os.path.join(os.path.dirname(p), "nowhere", "x.csv"), p)


def boolean_column(p):
    head = lines(p)[0].split(",")
    return next((h for h in head if h in ("meets_target", "meets_budget", "inside", "within_threshold",
                                          "beyond_tolerance")), None)


DAMAGE = [   # (name, change: path → bytes | str | None (done in place), files it applies to (None: every CSV))
    ("empty", lambda p: b"", None),
    ("header-only", lambda p: lines(p)[0] + "\n", ["kpis.csv", "world-check.csv"]),
    ("nul-bytes", lambda p: b"\0" * 64 + text(p).encode(), None),
    ("gzip", lambda p: __import__("gzip").compress(text(p).encode()), None),
    ("unclosed-quote", lambda p: quote(p, False), None),
    ("stray-quote", lambda p: quote(p, True), None),
    ("latin1-byte", lambda p: text(p).replace("\n", "\ncaf\udce9,", 1).encode("utf-8", "surrogateescape"), None),
    ("other-columns", lambda p: "a,b,c\n1,2,3\n", None),
    ("row-short", lambda p: "\n".join(lines(p)[:1] + [",".join(lines(p)[1].split(",")[:3])] + lines(p)[2:]), None),
    ("word-for-number", lambda p: cell_edit(p, "lots"), None),
    ("nan", lambda p: cell_edit(p, "nan"), None),
    ("inf", lambda p: cell_edit(p, "-inf"), None),
    ("1e400", lambda p: cell_edit(p, "1e400"), None),
    ("30-digit-number", lambda p: cell_edit(p, "9" * 30), None),
    ("word-for-boolean", lambda p: cell_edit(p, "maybe", boolean_column(p)), "booleans"),
    ("folder", folder, None),
    ("fifo", fifo, None),
    ("dangling-link", dangling, None),
]


def damage_cases():
    """kpis.csv gets every damage; every other CSV of the run a few, in turn, so that each file and each damage is
    tried without trying every pair (a page takes seconds)."""
    others = [f for f in CSVS if f != "kpis.csv" and len(lines(os.path.join(GOOD, f))) > 2]   # with rows
    k = 0
    for d, change, files in DAMAGE:
        if files == "booleans":
            files = [f for f in CSVS if boolean_column(os.path.join(GOOD, f))][:2]
        elif files is None:
            files = ["kpis.csv", others[k % len(others)]]
            k += 1
        for f in files:
            yield f"run-{f[:-4]}-{d}", f, change
    for extra in ("comparison", "check"):
        for d, change, files in DAMAGE:
            if files in (None, "booleans") or d == "header-only":
                yield f"{extra}-csv-{d}", extra, change


def apply(p, change):
    data = change(p)
    if data is not None:
        rt.replace_file(p, data)


def discard(target):
    """Removes a case's copy once judged (a run folder, or a CSV's own folder), so that each case's snapshots of the
    sandbox hash the same few files rather than every earlier case's copy too."""
    copy = target if os.path.isdir(target) else os.path.dirname(target)
    shutil.rmtree(copy, ignore_errors=True)


def detail(res):
    """The message, its sandbox prefix cut."""
    return res.first_err.replace(os.path.join(cwd, "copies") + "/", "")[len("report_page: "):]


def judge(res, before, names):
    problems = rt.common_problems(res, {2})
    if "Traceback" in res.err:
        problems.append("a Python traceback")
    lines_ = res.err_lines()
    if len(lines_) != 1 or not lines_[0].startswith("report_page: "):
        problems.append(f"{len(lines_)} stderr lines, expected one 'report_page: …' line: {res.err[:200]!r}")
    elif not any(nm in lines_[0] for nm in names):
        problems.append(f"the message names none of {names}: {lines_[0][:160]!r}")
    changed = rt.Sandbox.diff(before, sb.snapshot())
    if changed:
        problems.append("changed: " + " ".join(changed[:5]))
    lost = sb.canaries_intact()
    if lost:
        problems.append("canaries: " + " ".join(lost))
    return problems


for name, which, change in damage_cases():
    if not suite.wants(name):
        continue
    if which in ("comparison", "check"):
        target = fresh_csv({"comparison": "cmp.csv", "check": "chk.csv"}[which])
        victim, names = target, [os.path.basename(target)]
    else:
        target = fresh_run()
        victim, names = os.path.join(target, which), [which]
    try:
        apply(victim, change)
    except (OSError, StopIteration, ValueError, IndexError) as e:
        suite.record(name, [f"could not damage {which}: {e!r}"])
        continue
    if name.endswith("-folder") or name.endswith("-fifo") or name.endswith("-dangling-link"):
        names.append(os.path.basename(victim))
    before = sb.snapshot()
    res = page(target, name)
    suite.record(name, judge(res, before, names), detail(res))
    discard(target)


# --- manifest.json -------------------------------------------------------------------------------------------------
MANIFESTS = [
    ("empty", b""),
    ("not-json", b'{"tool": "habitat", "seed": '),
    ("a-list", b"[1, 2, 3]"),
    ("a-string", b'"habitat"'),
    ("null", b"null"),
    ("latin1", b'{"scenario_name": "caf\xe9"}'),
    ("binary", bytes(range(256))),
    ("wrong-types", b'{"scenario_name": 7, "seed": "x", "replications": [1], "wall_seconds": "fast"}'),
    ("scenario-not-text", b'{"resolved_scenario": {"name": "x"}}'),
    ("negative-count", b'{"person_days": -5}'),
    ("boolean-count", b'{"replications": true}'),
    ("deep-nesting", b"[" * 100000 + b"]" * 100000),
    ("huge-number", b'{"person_days": 1' + b"0" * 5000 + b"}"),
    ("folder", None),
]
for label, data in MANIFESTS:
    name = f"manifest-{label}"
    if not suite.wants(name):
        continue
    target = fresh_run()
    p = os.path.join(target, "manifest.json")
    if data is None:
        folder(p)
    else:
        rt.replace_file(p, data)
    before = sb.snapshot()
    res = page(target, name)
    suite.record(name, judge(res, before, ["manifest.json"]), detail(res))
    discard(target)


# --- the target and the destination --------------------------------------------------------------------------------
def report_html(kind):
    def make():
        target = fresh_run()
        p = os.path.join(target, "report.html")
        if kind == "folder":
            os.mkdir(p)
            with open(os.path.join(p, "inside.txt"), "w") as f:
                f.write("mine\n")
        elif kind == "link":
            os.symlink(os.path.join(cwd, "KEEP.txt"), p)
        elif kind == "someone-elses":
            with open(p, "w") as f:
                f.write("<html><body>my own notes, not Habitat's</body></html>\n")
        return target, ["report.html"]
    return make


def missing_folder():
    return os.path.join(cwd, "copies", "no-such-run"), ["no-such-run"]


def a_file():
    p = os.path.join(cwd, "copies", "a-file")
    if not os.path.exists(p):
        with open(p, "w") as f:
            f.write("not a run\n")
    return p, ["a-file"]


def under_a_file():
    a_file()
    return os.path.join(cwd, "copies", "a-file", "run"), ["a-file/run"]


def file_limit(cmd):
    """The page's writes fail with EFBIG past 1 MB (a disk that fills mid-page; SIGXFSZ ignored)."""
    return ["/bin/sh", "-c", 'trap "" XFSZ; ulimit -f 2048; exec "$@"', "sh", *cmd]


TARGETS = [
    ("target-missing-folder", missing_folder, None),
    ("target-a-file", a_file, None),
    ("target-under-a-file", under_a_file, None),
    ("dest-report-html-folder", report_html("folder"), None),
    ("dest-report-html-link", report_html("link"), None),
    ("dest-report-html-someone-elses", report_html("someone-elses"), None),
    ("dest-disk-fills-mid-page", lambda: (fresh_run(), ["report.html"]), file_limit),
    ("dest-comparison-disk-fills", lambda: (fresh_csv("cmp.csv"), ["cmp.html"]), file_limit),
]
for name, make, wrap in TARGETS:
    if not suite.wants(name):
        continue
    target, names = make()
    before = sb.snapshot()
    res = page(target, name, wrap)
    suite.record(name, judge(res, before, names), detail(res))

# An immutable run folder (chattr +i: even root cannot write into it); skipped where chattr does not work.
name = "dest-immutable-folder"
if suite.wants(name):
    target = fresh_run()
    chattr = shutil.which("chattr")
    ok = chattr and subprocess.run([chattr, "+i", target], capture_output=True).returncode == 0
    if not ok and os.geteuid() != 0:
        os.chmod(target, 0o555)
        ok = True
    if not ok:
        suite.skip(name, "chattr +i does not work here (and root ignores a read-only mode)")
    else:
        before = sb.snapshot()
        res = page(target, name)
        suite.record(name, judge(res, before, [os.path.basename(target)]),
                     detail(res))
        if chattr:
            subprocess.run([chattr, "-i", target], capture_output=True)
        os.chmod(target, 0o755)

if batch is not None:
    batch.close()
    print(f"(in one Python process: {batch.cases} cases, {batch.starts} worker start(s), "
          f"{sum(batch.cpu.values()):.1f} s of CPU; {processes} case(s) as a process of their own)", flush=True)
sb.cleanup()
suite.finish()
