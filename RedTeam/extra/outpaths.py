#!/usr/bin/env python3
"""Output-path safety: where `run --out`, `trace --out`, `compare --out`, `check --record --baseline` and the
default Reports/<name> may write, and what they must refuse.

    RedTeam/extra/outpaths.py HABITAT [FILTER]

Each case gets its own sandbox (mktemp -d) with canary files in nested folders:
    box/KEEP.txt  box/l1/KEEP.txt  box/l1/l2/KEEP.txt  box/l1/l2/work/KEEP.txt (cwd)
    box/elsewhere/KEEP.txt (+ data)  box/home/KEEP.txt (HOME)
Refusals must exit 2 before simulating (no KPI table, no "Reports written") and leave every entry of the
sandbox exactly as it was (type, size, mode, mtime, device numbers, link target, content). Successes (into an
existing Habitat report that holds extra user files, into an empty folder, over a previous output of the same
kind) must exit 0, write the new output in place and change nothing else.

`--out /` runs only inside a chroot built in the sandbox (its own copy of habitat and its libraries, /proc
bound read-only in a private mount namespace), so a failed refusal can only damage the copy. Without chroot
support it is skipped unless the binary has already refused `--out .` in this run, in which case it runs on
the host with only "exit 2 and / unchanged" checked.
"""
import json
import os
import shutil
import stat
import subprocess
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rt  # noqa: E402

H, FILTER = rt.habitat_from_argv("outpaths.py HABITAT [FILTER]")
suite = rt.Suite("output paths (run/trace/compare/check --out, Reports/<name>)", FILTER)
SIZE = ["--people", "50", "--days", "7", "--replications", "1"]
RUN = [H, "run"] + SIZE + ["--progress", "never", "--out"]
SCEN = "name: s\nhorizon_days: 7\nreplications: 1\npopulation:\n  installs: 50\n"
TRACE_HEADER = "scenario,arm,replication,product,time_utc,local_time,kind,"  # issue 40: traces carry the report keys
COMPARE_HEADER = "scenario,arm,replication,product,kpi,"
refused_dot = {"ok": False}


def sandbox(label):
    sb = rt.Sandbox(label)
    sb.canary("", "l1", "l1/l2", "l1/l2/work", "elsewhere", "home")
    sb.write("elsewhere/data/important.csv", "a,b\n1,2\n")
    sb.write("home/.profile", "export KEEP=1\n")
    sb.write("l1/l2/work/inputs/s.yaml", SCEN)
    return sb, sb.path("l1/l2/work")


def simulated(res):
    return "Reports written" in res.out or "d1_retention" in res.out


def judge_refusal(name, sb, before, res, simulates=True):
    problems = rt.common_problems(res, {2})
    changed = rt.Sandbox.diff(before, sb.snapshot())
    if changed:
        problems.append("changed: " + " ".join(changed[:6]))
    if simulates and simulated(res):
        problems.append("simulated before refusing (KPI table or 'Reports written' on stdout)")
    if res.rc == 2 and not res.err.strip():
        problems.append("no message on stderr")
    suite.record(name, problems, res.first_err)
    return not problems


def refuse(name, setup, cmd_of, env=None, simulates=True):
    """SETUP(sb, cwd) prepares the target and returns X; CMD_OF(X) is the command; expect exit 2, no change.
    SIMULATES: the command would simulate (run, check), so the refusal must come before any KPI table."""
    if not suite.wants(name):
        return None
    sb, cwd = sandbox(name)
    try:
        x = setup(sb, cwd)
        before = sb.snapshot()
        res = sb.run(cmd_of(x), cwd=cwd, env=(env(sb) if callable(env) else env))
        return judge_refusal(name, sb, before, res, simulates)
    finally:
        sb.cleanup()


# ------------------------------------------------------------------ targets
def t_dot(sb, cwd): return "."
def t_empty(sb, cwd): return ""
def t_dot_slash(sb, cwd): return "./"


def t_sub_dotdot(sb, cwd):
    sb.canary("l1/l2/work/sub")
    return "sub/.."


def t_parent(sb, cwd): return ".."
def t_ancestor_abs(sb, cwd): return sb.path("l1")
def t_self_by_detour(sb, cwd): return "../work"
def t_home(sb, cwd): return sb.home


def t_nonempty_dir(sb, cwd):
    sb.write("l1/l2/work/victim/a.txt", "alpha\n")
    sb.write("l1/l2/work/victim/sub/b.txt", "beta\n")
    return "victim"


def t_hidden_only_dir(sb, cwd):
    sb.write("l1/l2/work/project/.git/HEAD", "ref: refs/heads/main\n")
    return "project"


def t_file(sb, cwd):
    sb.write("l1/l2/work/notes.txt", "important data\n")
    return "notes.txt"


def t_empty_file(sb, cwd):
    sb.write("l1/l2/work/empty.txt", "")
    return "empty.txt"


def t_scenario_file(sb, cwd): return "inputs/s.yaml"


def t_symlink_dir(sb, cwd):
    os.symlink(sb.path("elsewhere"), os.path.join(cwd, "link"))
    return "link"


def t_symlink_ancestor(sb, cwd):
    os.symlink("..", os.path.join(cwd, "up"))
    return "up"


def t_symlink_file(sb, cwd):
    os.symlink(sb.path("elsewhere/data/important.csv"), os.path.join(cwd, "flink"))
    return "flink"


def t_dangling(sb, cwd):
    os.symlink(sb.path("elsewhere/not-there"), os.path.join(cwd, "dangling"))
    return "dangling"


def t_device(sb, cwd):
    os.mknod(os.path.join(cwd, "dev-null"), 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    return "dev-null"


def t_fifo(sb, cwd):
    os.mkfifo(os.path.join(cwd, "pipe"))
    return "pipe"


def t_nonempty_subdir(sb, cwd):
    sb.write("l1/l2/work/out/notes/todo.txt", "x\n")
    return "out/notes"


def can_mknod():
    import tempfile
    d = tempfile.mkdtemp(prefix="habitat-redteam-mknod.")
    try:
        os.mknod(os.path.join(d, "n"), 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        return True
    except OSError:
        return False
    finally:
        shutil.rmtree(d, ignore_errors=True)


MKNOD = can_mknod()


def refuse_or_skip(name, setup, cmd_of, env=None):
    if setup is t_device and not MKNOD:
        if suite.wants(name):
            suite.skip(name, "mknod is not permitted here")
        return None
    return refuse(name, setup, cmd_of, env)


# ------------------------------------------------------------------ run --out
run_out = lambda x: RUN + [x]  # noqa: E731
ok = refuse_or_skip("run-out-dot", t_dot, run_out)
refused_dot["ok"] = bool(ok)
for name, setup in [("run-out-empty-string", t_empty), ("run-out-dot-slash", t_dot_slash),
                    ("run-out-sub-dotdot", t_sub_dotdot), ("run-out-parent", t_parent),
                    ("run-out-ancestor-absolute", t_ancestor_abs), ("run-out-cwd-by-detour", t_self_by_detour),
                    ("run-out-home", t_home), ("run-out-nonempty-folder", t_nonempty_dir),
                    ("run-out-folder-with-only-hidden-files", t_hidden_only_dir),
                    ("run-out-nonempty-nested-folder", t_nonempty_subdir),
                    ("run-out-regular-file", t_file), ("run-out-empty-regular-file", t_empty_file),
                    ("run-out-the-scenario-file", t_scenario_file),
                    ("run-out-symlink-to-folder", t_symlink_dir), ("run-out-symlink-to-ancestor", t_symlink_ancestor),
                    ("run-out-symlink-to-file", t_symlink_file), ("run-out-dangling-symlink", t_dangling),
                    ("run-out-device-node", t_device), ("run-out-fifo", t_fifo)]:
    refuse_or_skip(name, setup, run_out)

# HOME given as "~" in a scenario's outputs.dir is not expanded by the shell: it must not mean the home folder
refuse_or_skip("run-outputs-dir-is-home",
               lambda sb, cwd: sb.write("l1/l2/work/inputs/h.yaml", SCEN + f"outputs:\n  dir: {sb.home}\n") and "inputs/h.yaml",
               lambda x: [H, "run", x, "--progress", "never"])


def report_files_ok(folder, people):
    """Problems with the Habitat report in FOLDER written for PEOPLE installs."""
    m = os.path.join(folder, "manifest.json")
    try:
        with open(m) as f:
            man = json.load(f)
    except (OSError, ValueError) as e:
        return [f"no readable manifest.json in {os.path.basename(folder)} ({e.__class__.__name__})"]
    p = []
    if man.get("tool") != "habitat":
        p.append("manifest.json is not Habitat's")
    if f"installs: {people}\n" not in man.get("resolved_scenario", ""):
        p.append(f"manifest.json is not from the new run (installs {people})")
    for fn in man.get("files", []):
        if not os.path.isfile(os.path.join(folder, fn)):
            p.append(f"{fn} listed but missing")
    return p


def succeed_into_report(name):
    if not suite.wants(name):
        return
    sb, cwd = sandbox(name)
    try:
        first = sb.run([H, "run", "--people", "30", "--days", "7", "--replications", "1", "--progress", "never",
                        "--out", "rep"], cwd=cwd)
        if first.rc != 0:
            suite.record(name, [f"setup run failed: {first.brief()}"])
            return
        sb.write("l1/l2/work/rep/notes.txt", "my notes about this run\n")
        sb.write("l1/l2/work/rep/plots/retention.svg", "<svg/>\n")
        sb.write("l1/l2/work/rep/plots/raw/cohort.bin", "\x00\x01\x02binary")
        keep = {k: v for k, v in rt.tree_hashes(os.path.join(cwd, "rep")).items()
                if k == "notes.txt" or k.startswith("plots")}
        before = sb.snapshot()
        res = sb.run(RUN + ["rep"], cwd=cwd)
        problems = rt.common_problems(res, {0})
        after_keep = {k: v for k, v in rt.tree_hashes(os.path.join(cwd, "rep")).items()
                      if k == "notes.txt" or k.startswith("plots")}
        if after_keep != keep:
            problems.append("notes.txt or plots/ not kept byte-identical")
        problems += report_files_ok(os.path.join(cwd, "rep"), 50)
        outside = [c for c in rt.Sandbox.diff(before, sb.snapshot()) if not c[1:].startswith("l1/l2/work/rep")]
        if outside:
            problems.append("changed outside rep/: " + " ".join(outside[:5]))
        if rt.staging_left(cwd):
            problems.append("staging left: " + " ".join(rt.staging_left(cwd)))
        suite.record(name, problems, "report replaced, notes.txt and plots/ kept")
    finally:
        sb.cleanup()


def succeed_into_empty(name):
    if not suite.wants(name):
        return
    sb, cwd = sandbox(name)
    try:
        os.mkdir(os.path.join(cwd, "fresh"))
        before = sb.snapshot()
        res = sb.run(RUN + ["fresh"], cwd=cwd)
        problems = rt.common_problems(res, {0}) + report_files_ok(os.path.join(cwd, "fresh"), 50)
        outside = [c for c in rt.Sandbox.diff(before, sb.snapshot()) if not c[1:].startswith("l1/l2/work/fresh")]
        if outside:
            problems.append("changed outside fresh/: " + " ".join(outside[:5]))
        suite.record(name, problems, "written into the empty folder")
    finally:
        sb.cleanup()


succeed_into_report("run-out-previous-report-with-user-files")
succeed_into_empty("run-out-empty-folder")


# ------------------------------------------------------------------ run --out /   (chroot only)
def build_chroot(root):
    """A minimal root: habitat, the libraries ldd names, zoneinfo, /tmp, /proc (mount point). None if impossible."""
    try:
        libs = subprocess.run(["ldd", H], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    os.makedirs(os.path.join(root, "bin"))
    shutil.copy2(H, os.path.join(root, "bin", "habitat"))
    for tok in libs.split():
        if tok.startswith("/") and os.path.exists(tok):
            dst = root + tok
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(os.path.realpath(tok), dst)
    if os.path.isdir("/usr/share/zoneinfo"):
        shutil.copytree("/usr/share/zoneinfo", os.path.join(root, "usr/share/zoneinfo"), symlinks=True)
    for d in ("tmp", "proc", "home"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    for d in ("", "tmp", "home"):
        with open(os.path.join(root, d, "KEEP.txt"), "w") as f:
            f.write("chroot canary\n")
    return root


def in_chroot(sb, root, args):
    """habitat ARGS inside the chroot, in a private mount namespace with /proc bound read-only."""
    script = ('root=$1; shift; mount --bind /proc "$root/proc" && mount -o remount,bind,ro "$root/proc" && '
              'exec chroot "$root" /bin/habitat "$@"')
    return sb.run(["unshare", "-m", "--propagation", "private", "bash", "-c", script, "chroot-run", root] + args,
                  env={"HOME": "/home"})


def run_out_root(name="run-out-root"):
    if not suite.wants(name):
        return
    sb = rt.Sandbox(name)
    try:
        root = None
        if shutil.which("unshare") and shutil.which("chroot") and os.geteuid() == 0:
            try:
                root = build_chroot(sb.path("root"))
            except OSError:
                root = None
        probe = in_chroot(sb, root, ["list"]) if root else None
        if probe is not None and probe.rc == 0 and "scroll-off" in probe.out:
            before = sb.snapshot(root, skip=("proc",))
            res = in_chroot(sb, root, ["run"] + SIZE + ["--progress", "never", "--out", "/"])
            problems = rt.common_problems(res, {2})
            changed = rt.Sandbox.diff(before, sb.snapshot(root, skip=("proc",)))
            if changed:
                problems.append("chroot changed: " + " ".join(changed[:6]))
            if simulated(res):
                problems.append("simulated before refusing")
            suite.record(name, problems, "(in a chroot) " + res.first_err)
        elif refused_dot["ok"]:
            top = sorted(os.listdir("/"))
            res = sb.run(RUN + ["/"], cwd=sb.box)
            problems = rt.common_problems(res, {2})
            if sorted(os.listdir("/")) != top:
                problems.append("/ changed")
            suite.record(name, problems, "(on the host, after --out . was refused) " + res.first_err)
        else:
            why = "no chroot here" if probe is None else f"habitat does not start in the chroot ({probe.brief()})"
            suite.skip(name, f"{why}, and --out . was not refused: not risking / on the host")
    finally:
        sb.cleanup()


run_out_root()


# ------------------------------------------------------------------ trace --out FILE and compare --out FILE
def prep_runs(sb, cwd):
    for d in ("A", "B"):
        r = sb.run([H, "run", "inputs/s.yaml", "--people", "30", "--days", "7", "--replications", "2",
                    "--progress", "never", "--out", f"inputs/{d}"], cwd=cwd)
        if r.rc != 0:
            raise RuntimeError(f"setup run {d} failed: {r.brief()}")


TRACE = lambda x: [H, "trace", "inputs/s.yaml", "--person", "0", "--out", x]  # noqa: E731
COMPARE = lambda x: [H, "compare", "inputs/A", "inputs/B", "--out", x]  # noqa: E731


def t_nonempty_dir_file_kind(sb, cwd):
    sb.write("l1/l2/work/results/old.csv", "x\n")
    return "results"


def t_empty_dir(sb, cwd):
    os.mkdir(os.path.join(cwd, "emptydir"))
    return "emptydir"


def t_plain_csv(sb, cwd):
    sb.write("l1/l2/work/mine.csv", "name,score\nana,3\n")
    return "mine.csv"


def t_trace_output(sb, cwd):
    sb.write("l1/l2/work/other.csv", TRACE_HEADER + "detail\n2026-01-05T00:00:00Z,x,engine,y\n")
    return "other.csv"


def t_compare_output(sb, cwd):
    sb.write("l1/l2/work/other.csv", COMPARE_HEADER + "unit\nx,y,all,scroll-off,d1,fraction\n")
    return "other.csv"


def with_runs(setup):
    def s(sb, cwd):
        prep_runs(sb, cwd)
        return setup(sb, cwd)
    return s


for kind, cmd, foreign in (("trace", TRACE, t_compare_output), ("compare", COMPARE, t_trace_output)):
    wrap = (lambda f: f) if kind == "trace" else with_runs
    for name, setup in [(f"{kind}-out-device-node", t_device), (f"{kind}-out-fifo", t_fifo),
                        (f"{kind}-out-unrelated-file", t_plain_csv), (f"{kind}-out-nonempty-folder", t_nonempty_dir_file_kind),
                        (f"{kind}-out-empty-folder", t_empty_dir), (f"{kind}-out-dot", t_dot),
                        (f"{kind}-out-other-kind-of-output", foreign)]:
        if setup is t_device and not MKNOD:
            if suite.wants(name):
                suite.skip(name, "mknod is not permitted here")
            continue
        try:
            refuse(name, wrap(setup), cmd, simulates=False)
        except RuntimeError as e:
            suite.record(name, [str(e)])


def replace_previous(name, kind):
    """A previous output of the same kind (its first line is Habitat's header) may be replaced: exit 0."""
    if not suite.wants(name):
        return
    sb, cwd = sandbox(name)
    try:
        if kind == "trace":
            first = sb.run([H, "trace", "inputs/s.yaml", "--person", "3", "--out", "prev.csv"], cwd=cwd)
            fresh = sb.run([H, "trace", "inputs/s.yaml", "--person", "0"], cwd=cwd)
            cmd, header = TRACE("prev.csv"), TRACE_HEADER
        else:
            prep_runs(sb, cwd)
            first = sb.run([H, "compare", "inputs/B", "inputs/A", "--out", "prev.csv"], cwd=cwd)
            fresh = None
            cmd, header = COMPARE("prev.csv"), COMPARE_HEADER
        if first.rc != 0 or not open(os.path.join(cwd, "prev.csv"), errors="replace").read().startswith(header):
            suite.record(name, [f"setup: previous {kind} output not written ({first.brief()})"])
            return
        before = sb.snapshot()
        res = sb.run(cmd, cwd=cwd)
        problems = rt.common_problems(res, {0})
        with open(os.path.join(cwd, "prev.csv"), "rb") as f:
            text = f.read().decode("utf-8", "replace")
        if not text.startswith(header):
            problems.append(f"prev.csv is not a {kind} output after the run")
        if fresh is not None and fresh.rc == 0 and text != fresh.out:
            problems.append("prev.csv differs from the same trace printed to stdout")
        outside = [c for c in rt.Sandbox.diff(before, sb.snapshot()) if c[1:] != "l1/l2/work/prev.csv"]
        if outside:
            problems.append("changed besides prev.csv: " + " ".join(outside[:5]))
        suite.record(name, problems, f"previous {kind} output replaced")
    except RuntimeError as e:
        suite.record(name, [str(e)])
    finally:
        sb.cleanup()


def new_file(name, kind):
    """Control: a new file in an existing folder is written (so the refusals above are about the path)."""
    if not suite.wants(name):
        return
    sb, cwd = sandbox(name)
    try:
        if kind == "compare":
            prep_runs(sb, cwd)
        before = sb.snapshot()
        res = sb.run((TRACE if kind == "trace" else COMPARE)("new.csv"), cwd=cwd)
        problems = rt.common_problems(res, {0})
        header = TRACE_HEADER if kind == "trace" else COMPARE_HEADER
        if not os.path.isfile(os.path.join(cwd, "new.csv")) or \
                not open(os.path.join(cwd, "new.csv"), errors="replace").read().startswith(header):
            problems.append(f"new.csv is not a {kind} output")
        outside = [c for c in rt.Sandbox.diff(before, sb.snapshot()) if c[1:] != "l1/l2/work/new.csv"]
        if outside:
            problems.append("changed besides new.csv: " + " ".join(outside[:5]))
        suite.record(name, problems, f"{kind} written to a new file")
    except RuntimeError as e:
        suite.record(name, [str(e)])
    finally:
        sb.cleanup()


new_file("trace-out-new-file", "trace")
new_file("compare-out-new-file", "compare")
replace_previous("trace-out-previous-trace", "trace")
replace_previous("compare-out-previous-comparison", "compare")

# ------------------------------------------------------------------ check --record --baseline X
REC = lambda x: [H, "check", "inputs/s.yaml", "--baseline", x, "--record", "--reason", "r"] + SIZE  # noqa: E731


def t_project(sb, cwd):
    sb.write("l1/l2/work/proj/src/main.c", "int main(void) { return 0; }\n")
    sb.write("l1/l2/work/proj/README", "my project\n")
    return "proj"


def t_baselines_root(sb, cwd):
    sb.write("l1/l2/work/Reports/baselines/README.md", "# Baselines\n")
    sb.write("l1/l2/work/Reports/baselines/demo/baseline.json", '{"reason": "demo"}\n')
    return "Reports/baselines"


for name, setup in [("check-record-into-project-folder", t_project), ("check-record-into-regular-file", t_file),
                    ("check-record-into-device-node", t_device), ("check-record-into-baselines-root", t_baselines_root),
                    ("check-record-into-cwd", t_dot)]:
    refuse_or_skip(name, setup, REC)


def rerecord(name="check-record-over-previous-baseline"):
    if not suite.wants(name):
        return
    sb, cwd = sandbox(name)
    try:
        first = sb.run([H, "check", "inputs/s.yaml", "--baseline", "bl", "--record", "--reason", "first",
                        "--people", "30", "--days", "7", "--replications", "1"], cwd=cwd)
        if first.rc != 0:
            suite.record(name, [f"setup record failed: {first.brief()}"])
            return
        res = sb.run([H, "check", "inputs/s.yaml", "--baseline", "bl", "--record", "--reason", "second"] + SIZE, cwd=cwd)
        problems = rt.common_problems(res, {0})
        try:
            with open(os.path.join(cwd, "bl", "baseline.json")) as f:
                if json.load(f).get("reason") != "second":
                    problems.append("baseline.json not re-recorded")
        except (OSError, ValueError):
            problems.append("no readable baseline.json")
        if rt.staging_left(cwd):
            problems.append("staging left")
        suite.record(name, problems, "baseline re-recorded")
    finally:
        sb.cleanup()


rerecord()


# ------------------------------------------------------------------ the default Reports/<name> over things that are not reports
def with_baselines(sb, cwd):
    """cwd/Reports/baselines/ as a project has it: a README and a recorded baseline."""
    r = sb.run([H, "check", "inputs/s.yaml", "--baseline", "Reports/baselines/demo", "--record", "--reason", "demo",
                "--people", "30", "--days", "7", "--replications", "1"], cwd=cwd)
    if r.rc != 0:
        raise RuntimeError(f"setup: recording the demo baseline failed: {r.brief()}")
    sb.write("l1/l2/work/Reports/baselines/README.md", "# Regression baselines\n")
    sb.canary("l1/l2/work/Reports")


def name_baselines(name="name-baselines-keeps-recorded-baselines"):
    if not suite.wants(name):
        return
    sb, cwd = sandbox(name)
    try:
        with_baselines(sb, cwd)
        sb.write("l1/l2/work/inputs/baselines.yaml", SCEN.replace("name: s", "name: baselines"))
        keep = rt.tree_hashes(os.path.join(cwd, "Reports", "baselines"))
        before = sb.snapshot()
        res = sb.run([H, "run", "inputs/baselines.yaml", "--progress", "never"], cwd=cwd)
        problems = rt.common_problems(res, {0, 1, 2})
        if rt.tree_hashes(os.path.join(cwd, "Reports", "baselines")) != keep:
            problems.append("Reports/baselines/ changed (recorded baselines lost or altered)")
        outside = [c for c in rt.Sandbox.diff(before, sb.snapshot()) if not c[1:].startswith("l1/l2/work/Reports/")]
        if outside:
            problems.append("changed outside Reports/: " + " ".join(outside[:5]))
        if sb.canaries_intact():
            problems.append("canaries lost: " + " ".join(sb.canaries_intact()))
        if rt.staging_left(os.path.join(cwd, "Reports")):
            problems.append("staging left in Reports/")
        suite.record(name, problems, f"exit {res.rc}, baselines intact")
    except RuntimeError as e:
        suite.record(name, [str(e)])
    finally:
        sb.cleanup()


name_baselines()


def scenario_target(name, yaml_tail, prepare):
    """A scenario (in the working directory, so outputs.dir and Reports/<name> mean the same folder) whose
    destination is an existing non-report thing: exit 2, untouched."""
    def setup(sb, cwd):
        prepare(sb, cwd)
        sb.write("l1/l2/work/t.yaml", yaml_tail)
        return "t.yaml"
    try:
        refuse(name, setup, lambda x: [H, "run", x, "--progress", "never"])
    except RuntimeError as e:
        suite.record(name, [str(e)])


scenario_target("outputs-dir-reports-baselines", SCEN + "outputs:\n  dir: Reports/baselines\n", with_baselines)
scenario_target("name-matches-a-file-in-reports", SCEN.replace("name: s", "name: README.md"),
                lambda sb, cwd: sb.write("l1/l2/work/Reports/README.md", "# Reports\n"))
scenario_target("name-matches-a-user-folder-in-reports", SCEN.replace("name: s", "name: notes"),
                lambda sb, cwd: sb.write("l1/l2/work/Reports/notes/todo.txt", "call Ana\n"))
scenario_target("outputs-dir-nonempty-user-folder", SCEN + "outputs:\n  dir: mine\n",
                lambda sb, cwd: sb.write("l1/l2/work/mine/thesis.tex", "\\documentclass{article}\n"))


# ------------------------------------------------------------------ path extremes (issue 30)
def chattr(flag, path):
    """True when `chattr FLAG PATH` worked (root, a file system with inode flags)."""
    try:
        return subprocess.run(["chattr", flag, path], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def debris(root):
    """Staging (.NAME.partial-*) and lock (.NAME.lock) entries anywhere under ROOT."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            if (n.startswith(".") and ".partial-" in n) or (n.startswith(".") and n.endswith(".lock")):
                found.append(os.path.relpath(os.path.join(dirpath, n), root))
    return found


def extreme(name, setup, cmd_of, must_say, expect=2, teardown=None, check=None, keep=()):
    """SETUP(sb, cwd) returns the target (None: skip, with the reason in sb.skip_reason); CMD_OF(x) the command.
    Expect EXPECT; a refusal (2) must say MUST_SAY, simulate nothing and change nothing; never a note that
    Habitat 'did not write' a file of its own; no staging or lock left anywhere."""
    if not suite.wants(name):
        return
    sb, cwd = sandbox(name)
    sb.skip_reason = ""
    try:
        x = setup(sb, cwd)
        if x is None:
            suite.skip(name, sb.skip_reason)
            return
        before = sb.snapshot()
        res = sb.run(cmd_of(x), cwd=cwd)
        problems = rt.common_problems(res, {expect})
        if expect == 2:
            changed = rt.Sandbox.diff(before, sb.snapshot())
            if changed:
                problems.append("changed: " + " ".join(c[:80] for c in changed[:4]))
            if simulated(res):
                problems.append("simulated before refusing")
            if res.rc == 2 and must_say not in res.err:
                problems.append(f"message does not say {must_say!r}: {res.first_err!r}")
            if res.rc == 2 and len(res.err_lines()) != 1:
                problems.append(f"stderr is not one line: {res.err.strip()[:160]!r}")
        if any(f"{own}, which Habitat did not write" in res.err or f"keeps {own}, which" in res.err for own in ("kpis.csv", "manifest.json")):
            problems.append("calls a file Habitat wrote one it 'did not write'")
        left = [d for d in debris(sb.box) if os.path.basename(d) not in keep]
        if left:
            problems.append("left: " + " ".join(d[:60] for d in left))
        if check:
            problems += check(sb, cwd)
        lost = sb.canaries_intact()
        if lost:
            problems.append("canaries lost: " + " ".join(lost))
        suite.record(name, problems, res.first_err[:150])
    finally:
        if teardown:
            teardown(sb, cwd)
        sb.cleanup()


def deep_long_name(sb, cwd):
    return "/".join(f"p{i:02d}" for i in range(16)) + "/" + "x" * 250


def long_total(sb, cwd):
    return "/".join(("q%02d" % i) + "q" * 197 for i in range(20)) + "/rep"


extreme("run-out-name-too-long-16-new-parents", deep_long_name, lambda x: RUN + [x], "bytes")
extreme("run-out-name-255-bytes", lambda sb, cwd: "n" * 255, lambda x: RUN + [x], "bytes")
extreme("run-out-name-256-bytes", lambda sb, cwd: "n" * 256, lambda x: RUN + [x], "bytes")
extreme("run-out-folder-name-too-long", lambda sb, cwd: "a/" + "d" * 256 + "/rep", lambda x: RUN + [x], "bytes")
extreme("run-out-path-too-long", long_total, lambda x: RUN + [x], "bytes")
extreme("run-out-path-too-long-absolute", lambda sb, cwd: os.path.join(cwd, long_total(sb, cwd)), lambda x: RUN + [x], "bytes")
# 3 980 bytes once absolute: within the 4 000 bytes refused as given, but no room under PATH_MAX (4 096) for the
# staging suffix and the report's files inside
extreme("run-out-absolute-path-3980-bytes",
        lambda sb, cwd: os.path.join(cwd, "/".join(["r" * 150] * ((3980 - len(cwd) - 1) // 151)) + "/" + "s" * ((3980 - len(cwd) - 1) % 151 or 1)),
        lambda x: RUN + [x], "its full path is")
extreme("run-out-multibyte-name-too-long", lambda sb, cwd: "é" * 120, lambda x: RUN + [x], "bytes")  # 240 bytes
extreme("check-record-baseline-path-too-long", long_total,
        lambda x: [H, "check", "inputs/s.yaml", "--record", "--reason", "x", "--baseline", x] + SIZE, "bytes")
extreme("run-out-not-utf8", lambda sb, cwd: b"rep\xff", lambda x: RUN + [x], "not valid UTF-8")
extreme("run-out-latin1-parent", lambda sb, cwd: b"caf\xe9/rep", lambda x: RUN + [x], "not valid UTF-8")
extreme("run-out-overlong-utf8", lambda sb, cwd: b"rep\xc0\xaf", lambda x: RUN + [x], "not valid UTF-8")
extreme("run-scenario-path-not-utf8", lambda sb, cwd: b"inputs/s\xff.yaml", lambda x: [H, "run", x, "--progress", "never"], "not valid UTF-8")
extreme("run-out-beside-a-user-file-named-like-the-lock",
        lambda sb, cwd: sb.write("l1/l2/work/.rep.lock", "my own notes\n") and "rep", lambda x: RUN + [x],
        "not a lock file Habitat wrote", keep=(".rep.lock",))
extreme("run-out-name-200-bytes-written", lambda sb, cwd: "w" * 200, lambda x: RUN + [x], "", expect=0,
        check=lambda sb, cwd: report_files_ok(os.path.join(cwd, "w" * 200), 50))


def previous_report_with(flag, entry, folder_flag=False):
    """A previous report in rep/ (with notes.txt of the user's), then `chattr FLAG` on rep/ENTRY (or rep/ itself)."""
    def setup(sb, cwd):
        first = sb.run(RUN[:1] + ["run"] + SIZE + ["--progress", "never", "--seed", "3", "--out", "rep"], cwd=cwd)
        if first.rc != 0:
            raise RuntimeError(f"setup run failed: {first.brief()}")
        sb.write("l1/l2/work/rep/notes.txt", "mine\n")
        target = os.path.join(cwd, "rep") if folder_flag else os.path.join(cwd, "rep", entry)
        if not chattr(flag, target):
            sb.skip_reason = f"chattr {flag} does not work here (not root, or no inode flags)"
            return None
        return "rep"
    return setup


def undo_flags(sb, cwd):
    for p in [os.path.join(cwd, "rep")] + [os.path.join(cwd, "rep", n) for n in ("kpis.csv", "notes.txt", "manifest.json")]:
        if os.path.lexists(p):
            chattr("-i", p)
            chattr("-a", p)


for name, flag, entry, says, folder_flag in [
        ("run-over-report-immutable-kpis", "+i", "kpis.csv", "kpis.csv, which Habitat wrote, is immutable", False),
        ("run-over-report-append-only-kpis", "+a", "kpis.csv", "kpis.csv, which Habitat wrote, is append-only", False),
        ("run-over-report-immutable-manifest", "+i", "manifest.json", "manifest.json, which Habitat wrote, is immutable", False),
        ("run-over-report-immutable-user-notes", "+i", "notes.txt", "notes.txt, which Habitat did not write, is immutable", False),
        ("run-over-report-immutable-folder", "+i", "", "the folder is immutable", True)]:
    try:
        extreme(name, previous_report_with(flag, entry, folder_flag), lambda x: RUN + [x], says, teardown=undo_flags)
    except RuntimeError as e:
        suite.record(name, [str(e)])


def interrupted_into_new_parents(name="run-out-new-parents-removed-on-sigint"):
    """A run into a/b/c/rep (none of them there) stopped by SIGINT: exit 130 and a/ is gone again."""
    if not suite.wants(name):
        return
    import signal
    import time
    sb, cwd = sandbox(name)
    try:
        before = sb.snapshot()
        err = open(os.path.join(sb.logs, "sigint.err"), "wb")
        p = subprocess.Popen([H, "run", "--people", "200000", "--days", "30", "--threads", "1", "--progress", "never",
                              "--out", "a/b/c/rep"], cwd=cwd, stdout=subprocess.DEVNULL, stderr=err,
                             env=dict(os.environ, HOME=sb.home))
        lock = os.path.join(cwd, "a", "b", "c", ".rep.lock")
        t = time.monotonic()
        while not os.path.exists(lock) and p.poll() is None and time.monotonic() - t < 20:
            time.sleep(0.01)
        time.sleep(0.3)
        p.send_signal(signal.SIGINT)
        try:
            rc = p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = p.wait()
        err.close()
        problems = [] if rc == 130 else [f"exit {rc}, expected 130"]
        changed = rt.Sandbox.diff(before, sb.snapshot())
        if changed:
            problems.append("left: " + " ".join(changed[:4]))
        suite.record(name, problems, "a/b/c made and removed again")
    finally:
        sb.cleanup()


interrupted_into_new_parents()

suite.finish()
