#!/usr/bin/env python3
"""Interruption: signals at random moments during a run that replaces an existing report, and SIGKILL during
`check --record`.

    RedTeam/extra/interrupt.py HABITAT [FILTER]

In a sandbox (mktemp -d): a small report is recorded into rep/ (100 people x 14 days). A longer run into the
same folder is sized (the population grows from a 120-person probe until one run takes about TARGET_S seconds,
default 6) and timed, then started again and again and sent SIGINT, SIGTERM, SIGHUP or SIGKILL at a moment drawn uniformly from
(0.05, 0.98) x its duration, three fixed seeds per signal. After each:
  - exit 130 / 143 / 129 for INT / TERM / HUP and 137 for KILL, or 0 if the run finished first;
  - for INT / TERM / HUP, stderr is one line starting "habitat: interrupted";
  - rep/ is byte-identical to before (sha256 of every file) unless the run finished, in which case it is the
    complete new report;
  - for INT / TERM / HUP no ".rep.partial-*" staging entry is left beside rep/; after SIGKILL the next small
    `habitat run ... --out rep` must succeed and leave no staging debris either.
If strace is usable, each signal is also sent while the process is held (strace delay injection) inside the
rename that commits the report: the report must then be the old one or the complete new one, never a mix.

`check --record` over an existing baseline is SIGKILLed at random moments (biased towards the end, where the
commit happens) and, with strace, during each of its renames: the baseline folder must always hold a readable
baseline.json (old or new), and a following `check --record` must succeed. A control case first checks that a
freshly recorded baseline passes `check`.

Double signals during `merge` (issue 30): three shards are merged (half a second to a second on a debug binary)
into a new folder and over a previous report, and sent a first signal at a random moment and the same signal again
1-50 ms later (INT, TERM, HUP, two seeds each): exit 128 + the signal (0 if the merge finished first), one stderr line
starting "habitat: interrupted", the previous report byte-identical (or no folder at all for a new one), no
".NAME.partial-*" staging and no ".NAME.lock" left.

Early signals: with strace, the first signal handler the process installs must be Habitat's (SIGINT, SIGTERM,
SIGHUP), before the Swift runtime's own handlers, i.e. before any library initialiser: a signal in the first
milliseconds then gets its line too.
"""
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # keep __pycache__ out of the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rt  # noqa: E402
from guard import wait_guarded  # noqa: E402

H, FILTER = rt.habitat_from_argv("interrupt.py HABITAT [FILTER]")
suite = rt.Suite("interruption (SIGINT/SIGTERM/SIGHUP/SIGKILL, check --record)", FILTER)
TARGET_S = float(os.environ.get("TARGET_S", "6"))
DAYS = 60
EXPECT = {"INT": 130, "TERM": 143, "HUP": 129, "KILL": 137}
SEEDS = (11, 22, 33)
RENAME_SYSCALLS = {"82", "264", "316"}  # x86_64 rename, renameat, renameat2

sb = rt.Sandbox("interrupt")
cwd = sb.mkdir("work")
sb.canary("", "work")
ENV = dict(os.environ, HOME=sb.home, GIT_OPTIONAL_LOCKS="0")
LOG = sb.logs


def habitat(args, name, timeout=None):
    return sb.run([H] + args, cwd=cwd, name=name, timeout=timeout)


def small_run(people=100, days=14, name="small"):
    return habitat(["run", "--people", str(people), "--days", str(days), "--replications", "1",
                    "--progress", "never", "--out", "rep"], name)


def report_problems(folder, people):
    try:
        with open(os.path.join(folder, "manifest.json")) as f:
            man = json.load(f)
    except (OSError, ValueError):
        return ["no readable manifest.json"]
    p = [] if f"installs: {people}\n" in man.get("resolved_scenario", "") else [f"manifest is not from the {people}-person run"]
    p += [f"{fn} missing" for fn in man.get("files", []) if not os.path.isfile(os.path.join(folder, fn))]
    return p


def debris():
    """Entries in the working directory other than rep/, probe/, bl/, scenario files and the canary."""
    return sorted(e for e in os.listdir(cwd) if e not in ("rep", "probe", "bl", "KEEP.txt", "ck.yaml", "shards", "mrep"))


def start(args, strace_delay_us=None):
    cmd = [H] + args
    if strace_delay_us:
        cmd = ["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=rename,renameat,renameat2",
               "-e", f"inject=rename,renameat,renameat2:delay_enter={strace_delay_us}"] + cmd
    err = open(os.path.join(LOG, "long.err"), "wb")
    p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                         env=ENV, start_new_session=True)
    p._rt_err = err
    return p, time.monotonic()


def alive(p):
    """True while P runs; does not reap it (wait_guarded does)."""
    try:
        return os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
    except ChildProcessError:
        return False


def tracee_of(p):
    """The habitat process under strace (strace's child), or P itself."""
    for _ in range(200):
        try:
            with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
                kids = f.read().split()
            if kids:
                return int(kids[0])
        except OSError:
            return None
        time.sleep(0.01)
    return None


def in_rename(pid):
    """The /proc syscall line (number and arguments) of a thread of PID blocked in a rename, or None."""
    try:
        for t in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{t}/syscall") as f:
                    line = f.read().strip()
            except OSError:
                continue
            if line.split(" ", 1)[0] in RENAME_SYSCALLS:
                return f"{t} {line}"
    except OSError:
        pass
    return None


def finish(p, t0, limit):
    rc, killed, wall, rss = wait_guarded(p, limit, rt.RSS_MB, t0)
    p._rt_err.close()
    with open(os.path.join(LOG, "long.err"), "rb") as f:
        err = f.read().decode("utf-8", "replace")
    err = "".join(l for l in err.splitlines(True) if not l.startswith("strace: "))  # strace's own notes
    return rt.Result(rc, killed, wall, rss, "", err)


# ------------------------------------------------------------------ set-up: the previous report and the long run's size
r = small_run()
if r.rc != 0:
    suite.record("setup-small-report", [f"the small run failed: {r.brief()}"])
    sb.cleanup()
    suite.finish()
ref = rt.tree_hashes(os.path.join(cwd, "rep"))

# the long run: grow the population from a 120-person probe until a run takes at least 80 % of TARGET_S
PEOPLE, D, r = 120, 0.0, None
for attempt in range(4):
    r = habitat(["run", "--people", str(PEOPLE), "--days", str(DAYS), "--replications", "1", "--progress", "never",
                 "--out", "probe"], "probe", timeout=180)
    D = r.wall
    shutil.rmtree(os.path.join(cwd, "probe"), ignore_errors=True)
    if r.rc != 0 or D >= 0.8 * TARGET_S or PEOPLE >= 200000:
        break
    PEOPLE = int(min(200000, PEOPLE * min(30.0, TARGET_S / max(D, 0.05))))
LONG = ["run", "--people", str(PEOPLE), "--days", str(DAYS), "--replications", "1", "--progress", "never", "--out", "rep"]
print(f"   (long run: {PEOPLE} people x {DAYS} days, {D:.1f} s; exit {r.rc})", flush=True)
if r.rc != 0:
    suite.record("setup-long-run", [f"the long run failed on its own: {r.brief()}"])


def reset_previous():
    """Put a fresh small report in rep/ (after a run that finished and replaced it)."""
    global ref
    r = small_run()
    ref = rt.tree_hashes(os.path.join(cwd, "rep"))
    return r


def judge_signal(name, sig, res, commit_window=False):
    global ref
    problems = []
    expected = EXPECT[sig]
    now = rt.tree_hashes(os.path.join(cwd, "rep"))
    if res.killed != "no":
        problems.append(f"did not stop (killed by the watchdog after {res.wall:.1f}s)")
    elif res.crashed or (res.rc not in (0, expected)):
        problems.append(f"exit {res.rc}, expected {expected} or 0" + (f" ({res.first_err})" if res.first_err else ""))
    finished = res.rc == 0 or (commit_window and now != ref and not report_problems(os.path.join(cwd, "rep"), PEOPLE))
    if res.rc == 0 or (finished and now != ref):
        problems += report_problems(os.path.join(cwd, "rep"), PEOPLE)
    elif now != ref:
        problems.append("previous report changed (not byte-identical, and not the complete new one)")
    if sig != "KILL" and res.rc == expected:
        lines = res.err_lines()
        if len(lines) != 1 or not lines[0].startswith("habitat: interrupted"):
            problems.append("stderr is not one line 'habitat: interrupted…': " + repr(res.err.strip()[:160]))
    if sig != "KILL" and debris():
        problems.append("left: " + " ".join(debris()))
    if sig == "KILL":
        r = small_run(name="after-kill")  # also the next trial's previous report
        if r.rc != 0:
            problems.append(f"next run after SIGKILL failed: {r.brief()}")
        if debris():
            problems.append("debris after the next run: " + " ".join(debris()))
    what = "finished first" if res.rc == 0 else f"exit {res.rc}"
    suite.record(name, problems, f"{what} at {getattr(res, 'at', 0):.2f}s; " + (res.first_err or ""))
    if sig == "KILL":
        ref = rt.tree_hashes(os.path.join(cwd, "rep"))
    elif finished or now != ref:
        reset_previous()


# ------------------------------------------------------------------ random moments
for sig in ("INT", "TERM", "HUP", "KILL"):
    for seed in SEEDS:
        name = f"run-sig{sig.lower()}-seed{seed}"
        if not suite.wants(name):
            continue
        at = random.Random(f"{sig}-{seed}").uniform(0.05, 0.98) * D
        p, t0 = start(LONG)
        while time.monotonic() - t0 < at and alive(p):
            time.sleep(0.01)
        if alive(p):
            os.kill(p.pid, getattr(signal, "SIG" + sig))
        res = finish(p, t0, D * 4 + 20)
        res.at = at
        judge_signal(name, sig, res)

# ------------------------------------------------------------------ inside the commit's rename (strace)
STRACE = shutil.which("strace") is not None


def strace_works():
    if not STRACE:
        return False
    try:
        return subprocess.run(["strace", "-qq", "-o", "/dev/null", "true"], timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


STRACE_OK = strace_works()
COMMIT = ["run", "--people", "150", "--days", "10", "--replications", "1", "--progress", "never", "--out", "rep"]
for sig in ("INT", "TERM", "HUP", "KILL"):
    name = f"run-sig{sig.lower()}-inside-commit-rename"
    if not suite.wants(name):
        continue
    if not STRACE_OK:
        suite.skip(name, "strace is not available or not permitted")
        continue
    saved_people, PEOPLE = PEOPLE, 150
    for attempt in range(2):  # strace occasionally lets a rename through undelayed: try once more
        p, t0 = start(COMMIT, strace_delay_us=2000000)
        pid = tracee_of(p)
        hit = False
        while pid and alive(p) and time.monotonic() - t0 < 60:
            if in_rename(pid):
                hit = True
                time.sleep(0.3)
                os.kill(pid, getattr(signal, "SIG" + sig))
                break
            time.sleep(0.01)
        res = finish(p, t0, 90)
        res.at = time.monotonic() - t0
        if hit or res.rc != 0:
            break
        reset_previous()
    if not hit:
        suite.skip(name, f"never saw the rename (exit {res.rc})")
        reset_previous()
    else:
        # strace reports the tracee's fate as its own exit status: 128+N or the tracee's code
        judge_signal(name, sig, res, commit_window=True)
    PEOPLE = saved_people

# ------------------------------------------------------------------ check --record, SIGKILLed
sb.write("work/ck.yaml", "name: ck\nhorizon_days: 7\nreplications: 1\npopulation:\n  installs: 50\n")
REC_SMALL = ["check", "ck.yaml", "--baseline", "bl", "--record", "--reason", "first", "--people", "50", "--days", "7",
             "--replications", "1"]


def baseline_problems(stage):
    bj = os.path.join(cwd, "bl", "baseline.json")
    if not os.path.isdir(os.path.join(cwd, "bl")):
        return [f"{stage}: the baseline folder is gone"]
    try:
        with open(bj) as f:
            reason = json.load(f).get("reason")
    except (OSError, ValueError):
        return [f"{stage}: bl/ has no readable baseline.json (holds: {' '.join(sorted(os.listdir(os.path.join(cwd, 'bl'))))[:120]})"]
    return [] if reason in ("first", "second") else [f"{stage}: baseline.json reason {reason!r}"]


def after_record_kill(name, at, res):
    problems = []
    if res.killed != "no":
        problems.append("did not stop")
    elif res.rc not in (0, 137):
        problems.append(f"exit {res.rc}, expected 137 or 0")
    problems += baseline_problems("after SIGKILL")
    r1 = habitat(REC_SMALL, "rerecord")
    if r1.rc != 0:
        problems.append(f"check --record afterwards failed: {r1.brief()}")
    problems += baseline_problems("after the next check --record")
    if debris():
        problems.append("debris: " + " ".join(debris()))
    what = "finished before the kill" if res.rc == 0 else f"exit {res.rc}"
    suite.record(name, problems, f"{what} at {at:.2f}s; baseline.json present")


r = habitat(REC_SMALL, "record-first")
if suite.wants("check-record-then-check-passes"):
    # control: the freshly recorded baseline is usable (the kills below only look at baseline.json)
    r2 = habitat(["check", "--baseline", "bl", "--progress", "never"], "check-fresh")
    suite.record("check-record-then-check-passes", rt.common_problems(r, {0}, "check --record: ")
                 + rt.common_problems(r2, {0}, "check: "), r2.first_err or r2.out.strip()[:120])
if r.rc != 0:
    suite.record("check-record-setup", [f"check --record failed: {r.brief()}"])
else:
    rec_people = max(100, PEOPLE // 2)
    REC_BIG = ["check", "ck.yaml", "--baseline", "bl", "--record", "--reason", "second", "--people", str(rec_people),
               "--days", "40", "--replications", "1"]
    r = habitat(REC_BIG, "record-measure", timeout=120)
    DK = r.wall
    habitat(REC_SMALL, "record-reset")
    for seed in (1, 2, 3, 4):
        name = f"check-record-sigkill-seed{seed}"
        if not suite.wants(name):
            continue
        rng = random.Random(f"record-{seed}")
        at = (rng.uniform(0.7, 1.0) if seed % 2 else rng.uniform(0.1, 0.7)) * DK
        p, t0 = start(REC_BIG)
        while time.monotonic() - t0 < at and alive(p):
            time.sleep(0.005)
        if alive(p):
            os.kill(p.pid, signal.SIGKILL)
        after_record_kill(name, at, finish(p, t0, DK * 4 + 20))
    for k in (1, 2, 3):
        name = f"check-record-sigkill-in-rename-{k}"
        if not suite.wants(name):
            continue
        if not STRACE_OK:
            suite.skip(name, "strace is not available or not permitted")
            continue
        small2 = REC_SMALL[:6] + ["second"] + REC_SMALL[7:]
        for attempt in range(2):  # strace occasionally lets a rename through undelayed: try once more
            p, t0 = start(small2, strace_delay_us=1500000)
            pid, seen, inside, hit = tracee_of(p), 0, None, False
            while pid and alive(p) and time.monotonic() - t0 < 60:
                now_in = in_rename(pid)  # a new rename has other arguments even when it follows at once
                if now_in and now_in != inside:
                    seen += 1
                    if seen == k:
                        time.sleep(0.3)
                        os.kill(pid, signal.SIGKILL)
                        hit = True
                        break
                inside = now_in
                time.sleep(0.01)
            res = finish(p, t0, 90)
            if hit or res.rc != 0 or seen:  # seen but fewer than k: the binary makes fewer renames
                break
            habitat(REC_SMALL, "record-reset")
        if not hit:
            suite.skip(name, f"check --record made fewer than {k} renames (exit {res.rc}); nothing to interrupt")
            if res.rc == 0:
                habitat(REC_SMALL, "record-reset")
            continue
        after_record_kill(name, time.monotonic() - t0, res)

# ------------------------------------------------------------------ double signals during merge
MERGE_SHARDS = ["--people", "15", "--days", "60", "--replications", "12", "--progress", "never"]


def merge_cases():
    names = [f"merge-{where}-double-sig{sig.lower()}-seed{seed}" for where in ("new", "over") for sig in ("INT", "TERM", "HUP")
             for seed in (1, 2)]
    if not any(suite.wants(n) for n in names):
        return
    shard_dirs = [os.path.join("shards", f"s{k}") for k in (1, 2, 3)]
    procs = [subprocess.Popen([H, "run", "--shard", f"{k}/3", "--out", d] + MERGE_SHARDS, cwd=cwd, env=ENV,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for k, d in zip((1, 2, 3), shard_dirs)]
    if any(p.wait(timeout=600) != 0 for p in procs):
        suite.record("merge-setup-shards", ["run --shard failed"])
        return
    merge = ["merge"] + shard_dirs + ["--progress", "never", "--out"]
    r = habitat(merge + ["mrep"], "merge-measure", timeout=120)
    DM = r.wall
    if r.rc != 0:
        suite.record("merge-setup", [f"merge failed on its own: {r.brief()}"])
        return
    print(f"   (merge of 3 shards: {DM:.1f} s)", flush=True)
    mref = rt.tree_hashes(os.path.join(cwd, "mrep"))
    for where in ("new", "over"):
        for sig in ("INT", "TERM", "HUP"):
            for seed in (1, 2):
                name = f"merge-{where}-double-sig{sig.lower()}-seed{seed}"
                if not suite.wants(name):
                    continue
                out = "mnew" if where == "new" else "mrep"
                shutil.rmtree(os.path.join(cwd, "mnew"), ignore_errors=True)
                rng = random.Random(f"merge-{where}-{sig}-{seed}")
                at, gap = rng.uniform(0.05, 0.9) * DM, rng.uniform(0.001, 0.05)
                p, t0 = start(merge + [out])
                while time.monotonic() - t0 < at and alive(p):
                    time.sleep(0.005)
                if alive(p):
                    os.kill(p.pid, getattr(signal, "SIG" + sig))
                    time.sleep(gap)
                    if alive(p):
                        os.kill(p.pid, getattr(signal, "SIG" + sig))
                res = finish(p, t0, DM * 4 + 20)
                problems = []
                expected = EXPECT[sig]
                if res.killed != "no":
                    problems.append(f"did not stop (killed by the watchdog after {res.wall:.1f}s)")
                elif res.crashed or res.rc not in (0, expected):
                    problems.append(f"exit {res.rc}, expected {expected} or 0" + (f" ({res.first_err})" if res.first_err else ""))
                if res.rc == expected:
                    lines = res.err_lines()
                    if len(lines) != 1 or not lines[0].startswith("habitat: interrupted"):
                        problems.append("stderr is not one line 'habitat: interrupted…': " + repr(res.err.strip()[:160]))
                    now = rt.tree_hashes(os.path.join(cwd, "mrep"))
                    if where == "over" and now != mref:
                        # The merge may have committed before the signal (a release build merges in a few tenths of a
                        # second): then the folder is the complete new report — every file the same as the previous
                        # merge's but manifest.json (wall_seconds) — and the line must not say nothing was written.
                        complete = now.keys() == mref.keys() and all(now[k] == mref[k] for k in now if k != "manifest.json")
                        if not complete or "nothing was written" in res.err:
                            problems.append("previous report changed (not byte-identical, and not the complete new one): "
                                            + repr(res.err.strip()[:300]))
                        mref = now
                    if where == "new" and os.path.lexists(os.path.join(cwd, "mnew")):
                        problems.append("mnew/ was written although the merge was interrupted")
                left = [e for e in os.listdir(cwd) if ".partial-" in e or e.endswith(".lock")]
                if left:
                    problems.append("left: " + " ".join(sorted(left)))
                    for e in left:
                        shutil.rmtree(os.path.join(cwd, e), ignore_errors=True)
                        if os.path.lexists(os.path.join(cwd, e)):
                            os.unlink(os.path.join(cwd, e))
                what = "finished first" if res.rc == 0 else f"exit {res.rc}"
                suite.record(name, problems, f"{what}; signals at {at:.2f}s and +{gap * 1000:.0f} ms; " + (res.first_err or ""))
                if res.rc == 0 and where == "over":
                    mref = rt.tree_hashes(os.path.join(cwd, "mrep"))
    shutil.rmtree(os.path.join(cwd, "mnew"), ignore_errors=True)


merge_cases()

# ------------------------------------------------------------------ early signals: Habitat's handler comes first
name = "early-signal-handler-before-runtime"
if suite.wants(name):
    if not STRACE_OK:
        suite.skip(name, "strace is not available or not permitted")
    else:
        tr = subprocess.run(["strace", "-qq", "-e", "trace=rt_sigaction", H, "--version"], capture_output=True, text=True,
                            timeout=60, env=ENV)
        installs = [m.group(1) for m in (re.match(r"rt_sigaction\((\w+), \{sa_handler=0x", l) for l in tr.stderr.splitlines()) if m]
        first = installs[0] if installs else "none"
        problems = [] if first in ("SIGINT", "SIGTERM", "SIGHUP") else [f"the first handler installed is for {first}, not SIGINT/SIGTERM/SIGHUP "
                                                                           "(Habitat's comes after the runtime's: a signal before it ends the process silently)"]
        suite.record(name, problems, f"first handler: {first}")

lost = sb.canaries_intact()
if lost:
    suite.record("canaries", ["lost: " + " ".join(lost)])
sb.cleanup()
suite.finish()
