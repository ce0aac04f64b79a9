#!/usr/bin/env python3
"""Full disk: writing reports onto a 2 MB tmpfs that is already full.

    RedTeam/extra/fulldisk.py HABITAT [FILTER]

Needs root and mount namespaces: the script re-runs itself under `unshare -m --propagation private`, mounts a
2 MB tmpfs on a folder of its sandbox (private to that namespace, unmounted at the end and gone with it anyway)
and then:
  - records a small report into DISK/rep, fills the rest of the tmpfs, and runs again over rep/: expect exit 1
    or 2, rep/ byte-identical, no staging entry left, stderr one line that mentions space, no library internals;
  - `run --out DISK/fresh` (a new folder), `trace --out DISK/t.csv` and `compare A B --out DISK/c.csv` on the
    full disk: exit 1 or 2, one clear line mentioning space, nothing left behind on the disk;
  - `trace` and `compare` over a previous output of theirs on the full disk: the previous file intact.
When a tmpfs cannot be mounted (not root, no unshare, a container without CAP_SYS_ADMIN) every case prints SKIP
and the script still passes.
"""
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rt  # noqa: E402

H, FILTER = rt.habitat_from_argv("fulldisk.py HABITAT [FILTER]")
CASES = ["fulldisk-run-over-previous-report", "fulldisk-run-into-new-folder", "fulldisk-trace-new-file",
         "fulldisk-compare-new-file", "fulldisk-trace-over-previous-trace", "fulldisk-compare-over-previous-comparison"]
INNER = os.environ.get("HABITAT_REDTEAM_FULLDISK_INNER") == "1"

if not INNER:
    why = None
    if os.geteuid() != 0:
        why = "not root"
    elif not shutil.which("unshare"):
        why = "no unshare"
    else:
        probe = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                                'd=$(mktemp -d) && mount -t tmpfs -o size=2m tmpfs "$d" && umount "$d"; r=$?; rmdir "$d"; exit $r'],
                               capture_output=True, text=True)
        if probe.returncode != 0:
            why = "cannot mount a tmpfs here (" + (probe.stderr.strip().splitlines() or ["?"])[-1][:80] + ")"
    if why:
        suite = rt.Suite("full disk (2 MB tmpfs)", FILTER)
        for c in CASES:
            if suite.wants(c):
                suite.skip(c, why)
        suite.finish()
    env = dict(os.environ, HABITAT_REDTEAM_FULLDISK_INNER="1")
    r = subprocess.run(["unshare", "-m", "--propagation", "private", sys.executable, os.path.abspath(__file__)]
                       + sys.argv[1:], env=env)
    sys.exit(r.returncode)

# ------------------------------------------------------------------ inside the private mount namespace
suite = rt.Suite("full disk (2 MB tmpfs), in a private mount namespace", FILTER)
sb = rt.Sandbox("fulldisk")
cwd = sb.mkdir("work")
sb.canary("", "work")
disk = sb.mkdir("work", "disk")
SIZE = ["--people", "40", "--days", "7", "--replications", "1"]
mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", disk], capture_output=True).returncode == 0


def fill():
    """Fill the tmpfs to the last block."""
    i = 0
    while True:
        i += 1
        try:
            with open(os.path.join(disk, f"filler-{i}.bin"), "wb") as f:
                while True:
                    f.write(b"\xa5" * 65536)
        except OSError:
            pass
        try:
            with open(os.path.join(disk, f"filler-tail-{i}.bin"), "wb") as f:
                while True:
                    f.write(b"\xa5" * 512)
        except OSError:
            pass
        if os.statvfs(disk).f_bavail == 0 or i > 4:
            return


def unfill():
    for e in os.listdir(disk):
        if e.startswith("filler"):
            os.remove(os.path.join(disk, e))


def message_problems(res):
    p = []
    lines = res.err_lines()
    if len(lines) != 1:
        p.append(f"stderr has {len(lines)} lines, expected one: {res.err.strip()[:200]!r}")
    if not any("space" in l.lower() for l in lines):
        p.append(f"the message does not mention space: {res.first_err!r}")
    if res.forbidden():
        p.append("library internals in the message: " + ", ".join(res.forbidden()))
    return p


def state(rel):
    p = os.path.join(disk, rel)
    return rt.sha256(p) if os.path.isfile(p) else rt.tree_hashes(p)


def leftovers(before_entries):
    return sorted(e for e in os.listdir(disk) if e not in before_entries and not e.startswith("filler"))


def run_case(name, cmd, target=None, keep=None):
    """CMD on the full disk; TARGET the output path (relative to disk); KEEP a path whose content must not change."""
    if not suite.wants(name):
        return
    keep_hash = state(keep) if keep else None
    entries = set(os.listdir(disk))
    fill()
    res = sb.run(cmd, cwd=cwd)
    problems = rt.common_problems(res, {1, 2}) + message_problems(res)
    if keep:
        if state(keep) != keep_hash:
            problems.append(f"{keep} changed")
    left = leftovers(entries)
    if left:
        problems.append("left on the disk: " + " ".join(left))
    unfill()
    suite.record(name, problems, res.first_err)


if not mounted:
    for c in CASES:
        if suite.wants(c):
            suite.skip(c, "mount -t tmpfs failed inside the namespace")
else:
    try:
        s = sb.write("work/s.yaml", "name: s\nhorizon_days: 7\nreplications: 1\npopulation:\n  installs: 40\n")
        ok = [sb.run([H, "run", "s.yaml"] + SIZE + ["--progress", "never", "--out", "disk/rep"], cwd=cwd).rc,
              sb.run([H, "run", "s.yaml"] + SIZE + ["--progress", "never", "--out", "A"], cwd=cwd).rc,
              sb.run([H, "run", "s.yaml"] + SIZE + ["--seed", "9", "--progress", "never", "--out", "B"], cwd=cwd).rc,
              sb.run([H, "trace", "s.yaml", "--person", "1", "--out", "disk/prev-trace.csv"], cwd=cwd).rc,
              sb.run([H, "compare", "A", "B", "--out", "disk/prev-compare.csv"], cwd=cwd).rc]
        if any(ok):
            suite.record("fulldisk-setup", [f"setting up on the tmpfs failed (exit statuses {ok})"])
        else:
            bigger = ["--people", "300", "--days", "30", "--replications", "1"]
            run_case("fulldisk-run-over-previous-report",
                     [H, "run", "s.yaml"] + bigger + ["--progress", "never", "--out", "disk/rep"], keep="rep")
            run_case("fulldisk-run-into-new-folder",
                     [H, "run", "s.yaml"] + bigger + ["--progress", "never", "--out", "disk/fresh"], keep="rep")
            run_case("fulldisk-trace-new-file", [H, "trace", "s.yaml", "--person", "0", "--days", "30",
                                                 "--out", "disk/t.csv"], keep="prev-trace.csv")
            run_case("fulldisk-compare-new-file", [H, "compare", "A", "B", "--out", "disk/c.csv"], keep="prev-compare.csv")
            run_case("fulldisk-trace-over-previous-trace", [H, "trace", "s.yaml", "--person", "0", "--days", "30",
                                                            "--out", "disk/prev-trace.csv"], keep="prev-trace.csv")
            run_case("fulldisk-compare-over-previous-comparison", [H, "compare", "B", "A", "--out", "disk/prev-compare.csv"],
                     keep="prev-compare.csv")
    finally:
        subprocess.run(["umount", disk], capture_output=True)
lost = sb.canaries_intact()
if lost:
    suite.record("canaries", ["lost: " + " ".join(lost)])
sb.cleanup()
suite.finish()
