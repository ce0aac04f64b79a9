#!/usr/bin/env python3
"""Racing runs: two or more habitat processes writing the same destination at once (issue 30).

    RedTeam/extra/races.py HABITAT [FILTER]

In a sandbox (mktemp -d). A run's size is chosen first (the population grows from a 100-person probe until one
run takes about TARGET_S seconds, default 3). Then:
  - two `run --out rep` into a new folder started together, and three together: one finishes (exit 0, a complete
    report), every other is refused at once (exit 2 within LATE_S seconds, default 3) with a message that names
    the winner (`another habitat run (pid N, …)`);
  - merge vs run: a run writes rep/, a `merge --out rep` started meanwhile is refused at once (and the reverse:
    a merge writes, a run is refused); check --record vs check --record into one baseline folder;
  - a run over a previous report while another run replaces it: the second refused, the report the winner's;
  - a run SIGKILLed (its lock file stays, unlocked): the next run takes it over, succeeds and leaves no lock.
After every case: no ".NAME.partial-*" staging and no ".NAME.lock" left, canaries intact.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # keep __pycache__ out of the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rt  # noqa: E402
from guard import wait_guarded  # noqa: E402

H, FILTER = rt.habitat_from_argv("races.py HABITAT [FILTER]")
suite = rt.Suite("racing runs (one run per destination)", FILTER)
TARGET_S = float(os.environ.get("TARGET_S", "3"))
LATE_S = float(os.environ.get("LATE_S", "3"))
DAYS = 30

sb = rt.Sandbox("races")
cwd = sb.mkdir("work")
sb.canary("", "work")
ENV = dict(os.environ, HOME=sb.home, GIT_OPTIONAL_LOCKS="0")
LOG = sb.logs
SCEN = "name: ck\nhorizon_days: 7\nreplications: 1\npopulation:\n  installs: 50\n"
sb.write("work/ck.yaml", SCEN)


def run_args(people, out):
    return ["run", "--people", str(people), "--days", str(DAYS), "--replications", "1", "--progress", "never",
            "--threads", "1", "--out", out]


class Proc:
    """A habitat process started now, its stderr captured."""
    count = 0

    def __init__(self, args):
        Proc.count += 1
        self.errpath = os.path.join(LOG, f"p{Proc.count}.err")
        self.errfile = open(self.errpath, "wb")
        self.t0 = time.monotonic()
        self.p = subprocess.Popen([H] + args, cwd=cwd, env=ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=self.errfile, start_new_session=True)
        self.pid = self.p.pid
        self.res = None

    def wait(self, limit=120):
        if self.res is None:
            rc, killed, wall, rss = wait_guarded(self.p, limit, rt.RSS_MB, self.t0)
            self.errfile.close()
            with open(self.errpath, "rb") as f:
                err = f.read().decode("utf-8", "replace")
            self.res = rt.Result(rc, killed, wall, rss, "", err)
        return self.res


def wait_all(procs, limit):
    """{pid: seconds from its start to its exit} for PROCS running side by side (not reaped here)."""
    ended, t = {}, time.monotonic()
    while len(ended) < len(procs) and time.monotonic() - t < limit:
        for pr in procs:
            if pr.pid not in ended:
                try:
                    if os.waitid(os.P_PID, pr.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                        ended[pr.pid] = time.monotonic() - pr.t0
                except ChildProcessError:
                    ended[pr.pid] = time.monotonic() - pr.t0
        time.sleep(0.005)
    return ended


def leftovers():
    return sorted(e for e in os.listdir(cwd) if ".partial-" in e or e.endswith(".lock"))


def clear(*names):
    for n in names:
        shutil.rmtree(os.path.join(cwd, n), ignore_errors=True)


def report_problems(folder, people):
    try:
        with open(os.path.join(folder, "manifest.json")) as f:
            man = json.load(f)
    except (OSError, ValueError):
        return [f"{os.path.basename(folder)}/ has no readable manifest.json"]
    p = [] if f"installs: {people}\n" in man.get("resolved_scenario", "") else [f"{os.path.basename(folder)}/ is not the {people}-person run"]
    return p + [f"{fn} missing" for fn in man.get("files", []) if not os.path.isfile(os.path.join(folder, fn))]


def refusal_problems(res, winner_pid, label="the second"):
    """A refusal that came at once and named the winner."""
    p = []
    if res.killed != "no" or res.crashed or res.rc != 2:
        p.append(f"{label}: {res.brief()}, expected exit 2")
    elif res.wall > LATE_S:
        p.append(f"{label} was refused only after {res.wall:.1f}s (expected within {LATE_S:.0f}s)")
    if res.rc == 2 and f"another habitat run (pid {winner_pid}" not in res.err:
        p.append(f"{label}'s message does not name the other run (pid {winner_pid}): {res.first_err!r}")
    if res.rc == 2 and len(res.err_lines()) != 1:
        p.append(f"{label}'s stderr is not one line: {res.err.strip()[:160]!r}")
    return p


def wait_for_lock(name, proc, limit=20):
    """Waits until PROC holds .NAME.lock (its claim is made); False if it ended first."""
    lock = os.path.join(cwd, f".{name}.lock")
    t = time.monotonic()
    while time.monotonic() - t < limit and proc.p.poll() is None:
        if os.path.exists(lock):
            return True
        time.sleep(0.005)
    return False


def finish_case(name, problems, detail=""):
    left = leftovers()
    if left:
        problems.append("left: " + " ".join(left))
        for e in left:
            shutil.rmtree(os.path.join(cwd, e), ignore_errors=True)
            if os.path.lexists(os.path.join(cwd, e)):
                os.unlink(os.path.join(cwd, e))
    suite.record(name, problems, detail)


# ------------------------------------------------------------------ size of a run taking about TARGET_S seconds
PEOPLE, D = 100, 0.0
for attempt in range(4):
    r = sb.run([H] + run_args(PEOPLE, "probe"), cwd=cwd, name="probe", timeout=180)
    D = r.wall
    clear("probe")
    if r.rc != 0 or D >= 0.8 * TARGET_S or PEOPLE >= 100000:
        break
    PEOPLE = int(min(100000, PEOPLE * min(30.0, TARGET_S / max(D, 0.05))))
print(f"   (a run: {PEOPLE} people x {DAYS} days, {D:.1f} s)", flush=True)
if r.rc != 0:
    suite.record("setup-run", [f"the probe run failed: {r.brief()}"])
    sb.cleanup()
    suite.finish()


# ------------------------------------------------------------------ runs started together into a new folder
def together(name, n):
    if not suite.wants(name):
        return
    clear("rep")
    procs = [Proc(run_args(PEOPLE, "rep")) for _ in range(n)]
    ended = wait_all(procs, D * 6 + 30)
    results = [pr.wait(D * 6 + 30) for pr in procs]
    for pr, res in zip(procs, results):
        res.wall = ended.get(pr.pid, res.wall)   # each one's own time, not when it was reaped
    winners = [pr for pr, res in zip(procs, results) if res.rc == 0]
    problems = []
    if len(winners) != 1:
        problems.append(f"{len(winners)} runs finished (exits {' '.join(str(x.rc) for x in results)}); expected exactly one")
    else:
        for pr, res in zip(procs, results):
            if pr is not winners[0]:
                problems += refusal_problems(res, winners[0].pid, f"run pid {pr.pid}")
        problems += report_problems(os.path.join(cwd, "rep"), PEOPLE)
    refused = [res for res in results if res.rc == 2]
    finish_case(name, problems, f"winner pid {winners[0].pid if winners else '?'}; " + (refused[0].first_err if refused else ""))


together("race-two-runs-new-out", 2)
together("race-three-runs-new-out", 3)


# ------------------------------------------------------------------ one writes, the other starts meanwhile
def second_meanwhile(name, first_args, second_args, folder, check_folder):
    """FIRST_ARGS writes FOLDER; once it holds the lock, SECOND_ARGS starts and must be refused at once."""
    if not suite.wants(name):
        return
    first = Proc(first_args)
    if not wait_for_lock(folder, first):
        res = first.wait()
        if res.rc == 0:
            # a binary without a lock, or one too fast to catch: the second must still be refused while it writes
            second = Proc(second_args).wait()
            finish_case(name, [f"no .{folder}.lock while the first wrote (first exit {res.rc}); the second exited {second.rc}"])
        else:
            finish_case(name, [f"the first failed: {res.brief()}"])
        return
    second = Proc(second_args).wait(60)
    problems = refusal_problems(second, first.pid)
    res = first.wait(D * 6 + 30)
    if res.rc != 0:
        problems.append(f"the first: {res.brief()}")
    problems += check_folder()
    finish_case(name, problems, second.first_err)


MERGE_SHARDS = ["--people", "15", "--days", "60", "--replications", "12", "--progress", "never"]
shard_dirs = [os.path.join("shards", f"s{k}") for k in (1, 2, 3)]
need_shards = any(suite.wants(n) for n in ("race-merge-vs-run", "race-run-vs-merge"))
shards_ok = False
if need_shards:
    ps = [Proc(["run", "--shard", f"{k}/3", "--out", d] + MERGE_SHARDS) for k, d in zip((1, 2, 3), shard_dirs)]
    shards_ok = all(p.wait(600).rc == 0 for p in ps)
    if not shards_ok:
        suite.record("setup-shards", ["run --shard failed"])
MERGE = ["merge"] + shard_dirs + ["--progress", "never", "--out", "rep"]

clear("rep")
second_meanwhile("race-run-then-second-run", run_args(PEOPLE, "rep"), run_args(50, "rep"), "rep",
                 lambda: report_problems(os.path.join(cwd, "rep"), PEOPLE))
# rep/ now holds a report: a run replacing it while another one replaces it too
second_meanwhile("race-runs-over-previous-report", run_args(PEOPLE + 1, "rep"), run_args(50, "rep"), "rep",
                 lambda: report_problems(os.path.join(cwd, "rep"), PEOPLE + 1))
if shards_ok:
    clear("rep")
    second_meanwhile("race-run-vs-merge", run_args(PEOPLE, "rep"), MERGE, "rep",
                     lambda: report_problems(os.path.join(cwd, "rep"), PEOPLE))
    clear("rep")
    second_meanwhile("race-merge-vs-run", MERGE, run_args(50, "rep"), "rep",
                     lambda: report_problems(os.path.join(cwd, "rep"), 15))
REC = ["check", "ck.yaml", "--baseline", "bl", "--record", "--reason", "r", "--replications", "1", "--days", str(DAYS)]
second_meanwhile("race-two-check-records", REC + ["--people", str(PEOPLE)], REC + ["--people", "50"], "bl",
                 lambda: [] if os.path.isfile(os.path.join(cwd, "bl", "baseline.json")) else ["bl/baseline.json missing"])


# ------------------------------------------------------------------ a lock left by SIGKILL is taken over
name = "race-stale-lock-after-sigkill"
if suite.wants(name):
    clear("rep")
    first = Proc(run_args(PEOPLE, "rep"))
    problems = []
    if wait_for_lock("rep", first):
        time.sleep(0.2)
        os.killpg(first.pid, signal.SIGKILL)
    res = first.wait()
    if res.rc not in (137, 0):
        problems.append(f"the first: {res.brief()}, expected 137")
    nxt = sb.run([H] + run_args(50, "rep"), cwd=cwd, name="after-kill")
    if nxt.rc != 0:
        problems.append(f"the next run: {nxt.brief()}")
    problems += report_problems(os.path.join(cwd, "rep"), 50)
    finish_case(name, problems, "the next run took the lock over")

lost = sb.canaries_intact()
if lost:
    suite.record("canaries", ["lost: " + " ".join(lost)])
sb.cleanup()
suite.finish()
