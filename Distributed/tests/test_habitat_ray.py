#!/usr/bin/env python3
"""End-to-end tests of habitat-ray on a real local Ray cluster (no mocks of Ray or habitat).

    python3 Distributed/tests/test_habitat_ray.py HABITAT_BINARY
    HABITAT=HABITAT_BINARY python3 -m pytest Distributed/tests        # also works under pytest

The module starts its own cluster: a head with 0 CPUs and two worker nodes of 1 CPU each (`ray.cluster_utils`),
isolated from any other Ray on the machine (its own RAY_TMPDIR, so its own session dir and address file, and
ports chosen by the OS), and always stops it (tearDownModule + atexit). The launcher runs as a subprocess
(`python3 -m habitat_ray.cli`) connected to that cluster with --address.

Checked: 4 shards merged == a single `habitat run`, byte for byte; a Ray worker SIGKILLed mid-shard is retried
(and its habitat child dies with it) and the result is still identical; SIGINT cancels every shard (exit 130,
no report); clear exit-2 errors for a missing Ray, a
missing scenario, --shards 0, a bad --out, and a shard where habitat exits 2 (not retried). `habitat-ray
sensitivity`: a design's points as 3 shards (with a --ranges file shipped to the workers), analysed, == a single
`habitat sensitivity`, byte for byte; a design option habitat refuses exits 2 before Ray, and a shard's refusal
(exit 2, here unknown --kpis ids, which only a simulated point reveals) ends the run with exit 2 on its first
attempt. About 1-2 minutes on 2 cores with a debug binary.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

DIST = Path(__file__).resolve().parents[1]
REPO = DIST.parent
SCENARIO = REPO / "Scenarios" / "premium-price-test.yaml"  # has arms: the block of people is per arm
RUN_ARGS = ["--people", "300", "--days", "30", "--replications", "2"]
#: The stop tests' size: each shard's habitat lives a few seconds (300 × 30 lived 0.4 s, short enough for the
#: /proc poll of a busy machine to miss it — CI's issue-44 run waited 240 s for a shard that had come and gone).
LONG_RUN_ARGS = ["--people", "1500", "--days", "60", "--replications", "2"]
SHARDS = 4
#: A small sensitivity design: Morris over the unpinned parameters, 2 trajectories (12 points of 2 arms).
SENSITIVITY_ARGS = ["--people", "200", "--days", "20", "--replications", "1", "--unpinned", "--samples", "2"]
SENSITIVITY_SHARDS = 3

HABITAT: str = ""      # the binary under test (argv[1], else $HABITAT, else .build/debug/habitat)
TMP: Path = Path()     # everything this module writes
CLUSTER = None         # ray.cluster_utils.Cluster
SINGLE: Path = Path()  # the single-process reference report
REPORT: Path = Path()  # where every run writes (outputs.dir is part of the manifest, so one path for all)


def _stop_cluster() -> None:
    """Stop this module's Ray cluster (its own processes only); idempotent."""
    global CLUSTER
    if CLUSTER is not None:
        cluster, CLUSTER = CLUSTER, None
        try:
            cluster.shutdown()
        except Exception as error:  # keep tearing down
            print(f"warning: stopping the test cluster: {error}", file=sys.stderr)


def setUpModule() -> None:
    """Find the binary, start the isolated 3-node cluster, run the single-process reference."""
    global HABITAT, TMP, CLUSTER, SINGLE, SINGLE_LONG, REPORT
    HABITAT = os.path.abspath(HABITAT or os.environ.get("HABITAT") or str(REPO / ".build/debug/habitat"))
    if not os.access(HABITAT, os.X_OK):
        raise RuntimeError(f"no habitat binary at {HABITAT}: pass it as the first argument or set $HABITAT")
    TMP = Path(tempfile.mkdtemp(prefix="hr-", dir="/tmp"))  # short: Ray's unix socket paths must fit 107 bytes
    (TMP / "work").mkdir()
    os.environ["RAY_TMPDIR"] = str(TMP)        # the cluster's session dir and ray_current_cluster file
    os.environ["TMPDIR"] = str(TMP / "work")   # the tasks' temp dirs: how the kill test spots its habitat
    os.environ.pop("RAY_ADDRESS", None)
    atexit.register(lambda: shutil.rmtree(TMP, ignore_errors=True))
    atexit.register(_stop_cluster)  # runs first (LIFO)

    from ray.cluster_utils import Cluster

    CLUSTER = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    CLUSTER.add_node(num_cpus=1)
    CLUSTER.add_node(num_cpus=1)
    CLUSTER.wait_for_nodes()

    SINGLE, SINGLE_LONG, REPORT = TMP / "single", TMP / "single-long", TMP / "report"
    for args, folder in ((RUN_ARGS, SINGLE), (LONG_RUN_ARGS, SINGLE_LONG)):
        subprocess.run([HABITAT, "run", str(SCENARIO), *args, "--out", str(REPORT), "--progress", "never"],
                       check=True, stdout=subprocess.DEVNULL)
        REPORT.rename(folder)


def tearDownModule() -> None:
    """Stop the cluster and remove the module's files."""
    _stop_cluster()
    shutil.rmtree(TMP, ignore_errors=True)


def launcher(*args: str) -> list[str]:
    """The habitat-ray command line (the module, so the test needs no `pip install`)."""
    return [sys.executable, "-m", "habitat_ray.cli", *args]


@contextlib.contextmanager
def launched(args: list[str]):
    """A habitat-ray command started in the background (stderr piped, stdout dropped); killed on the way out if it
    is still running, whatever the test did."""
    proc = subprocess.Popen(args, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def env() -> dict:
    """The launcher's environment: habitat_ray importable, no inherited cluster address."""
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join(filter(None, [str(DIST), e.get("PYTHONPATH")]))
    e.pop("RAY_ADDRESS", None)
    return e


def distributed_run(*extra: str, size: list[str] = RUN_ARGS) -> list[str]:
    """`habitat-ray run` of the reference scenario on the test cluster, into REPORT (`size`: its run-size flags)."""
    return launcher("run", str(SCENARIO), "--shards", str(SHARDS), "--address", CLUSTER.address,
                    "--habitat", HABITAT, "--out", str(REPORT), "--progress", "never", *size, *extra)


def distributed_sensitivity(*extra: str, shards: int = SENSITIVITY_SHARDS) -> list[str]:
    """`habitat-ray sensitivity` of the reference scenario's small design on the test cluster, into REPORT."""
    return launcher("sensitivity", str(SCENARIO), "--shards", str(shards), "--address", CLUSTER.address,
                    "--habitat", HABITAT, "--out", str(REPORT), "--progress", "never", *SENSITIVITY_ARGS, *extra)


def manifest_without_run_fields(path: Path) -> dict:
    """manifest.json minus what may differ between a merged and a single run: wall_seconds, threads, shard keys."""
    manifest = json.loads(path.read_text())
    return {k: v for k, v in manifest.items() if k not in ("wall_seconds", "threads") and "shard" not in k}


class HabitatRayTest(unittest.TestCase):
    """habitat-ray against the real binary on the module's cluster."""

    def setUp(self) -> None:
        shutil.rmtree(REPORT, ignore_errors=True)

    def assertSameReport(self, single: Path, merged: Path) -> None:
        """Every file byte for byte (manifest.json after dropping the run-specific fields)."""
        names = sorted(p.name for p in single.iterdir())
        self.assertIn("manifest.json", names)
        self.assertGreater(len(names), 1)
        self.assertEqual(names, sorted(p.name for p in merged.iterdir()))
        for name in names:
            if name == "manifest.json":
                self.assertEqual(manifest_without_run_fields(single / name), manifest_without_run_fields(merged / name))
            else:
                self.assertEqual((single / name).read_bytes(), (merged / name).read_bytes(), f"{name} differs")

    def test_shards_merge_to_the_single_run(self) -> None:
        """4 shards on 2 worker nodes, merged: the single run's report, byte for byte."""
        kept = TMP / "kept-1"
        result = subprocess.run(distributed_run("--keep-shards", str(kept)), env=env(), capture_output=True,
                                text=True, timeout=600)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn(f"report written to {REPORT}", result.stderr)
        self.assertSameReport(SINGLE, REPORT)
        for k in range(1, SHARDS + 1):
            manifest = json.loads((kept / f"shard-{k}-of-{SHARDS}" / "manifest.json").read_text())
            self.assertEqual(manifest["kind"], "shard")

    def test_killed_worker_is_retried(self) -> None:
        """SIGKILL the Ray worker running shard 2/4: its habitat dies too, Ray retries it, the bytes are the same.

        This run also ships the binary with the job (--ship-binary) instead of using its shared path.
        """
        with launched(distributed_run("--ship-binary", size=LONG_RUN_ARGS)) as proc:
            child, worker = wait_for_shard_process(f"2/{SHARDS}", proc)
            self.assertTrue(is_ray_worker(worker), f"parent {worker} of habitat {child} is not a Ray worker")
            self.assertIn("working_dir", _cmdline(child)[0], "the shard does not run the shipped binary")
            os.kill(worker, signal.SIGKILL)
            deadline = time.monotonic() + 120   # a ceiling for a stuck process, not a measure (a busy machine)
            while is_alive(child) and time.monotonic() < deadline:
                time.sleep(0.1)
            self.assertFalse(is_alive(child), "habitat outlived its Ray worker (PR_SET_PDEATHSIG)")
            _out, err = proc.communicate(timeout=600)
        self.assertEqual(proc.returncode, 0, err)
        self.assertIn(f"shard 2/{SHARDS}: done on attempt 2", err)
        # The killed attempt's temp dir is swept by a later task on its node (habitat_ray.shard._sweep_orphans).
        self.assertEqual(sorted(p.name for p in (TMP / "work").glob("habitat-shard-*")), [])
        self.assertIn("1 shard(s) retried", err)
        self.assertSameReport(SINGLE_LONG, REPORT)

    def test_interrupt_cancels_the_shards(self) -> None:
        """SIGINT mid-run: exit 130, every shard's habitat ends, no report is written."""
        with launched(distributed_run(size=LONG_RUN_ARGS)) as proc:
            wait_for_shard_process(f"1/{SHARDS}", proc)
            proc.send_signal(signal.SIGINT)
            _out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 130, err)
        self.assertIn("stopped by SIGINT", err)
        deadline = time.monotonic() + 120   # a ceiling, not a measure
        while shard_processes() and time.monotonic() < deadline:
            time.sleep(0.2)
        self.assertEqual(shard_processes(), [], "habitat shards still running after the launcher stopped")
        self.assertFalse(REPORT.exists())

    def test_habitat_bad_input_fails_fast(self) -> None:
        """habitat exiting 2 in a shard (here --days 0) ends the run with exit 2 on the first attempt."""
        cmd = launcher("run", str(SCENARIO), "--shards", "2", "--address", CLUSTER.address, "--habitat", HABITAT,
                       "--out", str(REPORT), "--days", "0", "--max-retries", "3")
        result = subprocess.run(cmd, env=env(), capture_output=True, text=True, timeout=300)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("habitat exited 2", result.stderr)
        self.assertIn("(attempt 1,", result.stderr)
        self.assertIn("horizon_days", result.stderr)  # habitat's own message is shown
        self.assertFalse(REPORT.exists())

    def test_sensitivity_shards_merge_to_the_single_run(self) -> None:
        """A design's 12 points as 3 shards on 2 worker nodes, analysed by `habitat sensitivity --merge`: the single
        `habitat sensitivity`'s sensitivity.csv and sensitivity-design.csv, byte for byte. The --ranges file
        travels to the workers with the task (they read it from their own temp dir)."""
        ranges = TMP / "ranges.csv"
        ranges.write_text("parameter,low,high\nbehavior.dormant.leave_constant,2,12\n")
        single = TMP / "sensitivity-single"
        subprocess.run([HABITAT, "sensitivity", str(SCENARIO), *SENSITIVITY_ARGS, "--ranges", str(ranges),
                        "--out", str(single), "--progress", "never"], check=True, capture_output=True)
        kept = TMP / "kept-sensitivity"
        result = subprocess.run(distributed_sensitivity("--ranges", str(ranges), "--keep-shards", str(kept)),
                                env=env(), capture_output=True, text=True, timeout=600)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn(f"report written to {REPORT}", result.stderr)
        for k in range(1, SENSITIVITY_SHARDS + 1):
            self.assertIn(f"shard {k}/{SENSITIVITY_SHARDS}: done on attempt 1", result.stderr)
            manifest = json.loads((kept / f"shard-{k}-of-{SENSITIVITY_SHARDS}" / "manifest.json").read_text())
            self.assertEqual((manifest["kind"], manifest["shard"]), ("sensitivity", {"index": k, "count": SENSITIVITY_SHARDS}))
        for name in ("sensitivity.csv", "sensitivity-design.csv"):
            self.assertEqual((single / name).read_bytes(), (REPORT / name).read_bytes(), f"{name} differs")
        self.assertIn(",2.000000000,", (REPORT / "sensitivity-design.csv").read_text())  # the shipped range was used
        self.assertEqual(manifest_without_run_fields(single / "manifest.json"),
                         manifest_without_run_fields(REPORT / "manifest.json"))

    def test_sensitivity_shard_refusal_exits_2(self) -> None:
        """habitat refusing a design option: exit 2 with its message. An option it refuses before simulating
        (--method bogus, an unknown --kpis id) is caught by the local check before Ray; the shard task itself raises
        BadInputError (never retried)."""
        sys.path.insert(0, str(DIST))
        from habitat_ray.shard import BadInputError, run_shard

        with self.assertRaises(BadInputError) as caught:  # the task's body, without Ray
            run_shard(HABITAT, SCENARIO.read_text(), SCENARIO.name, 1, 3, 1,
                      [*SENSITIVITY_ARGS, "--method", "bogus"], command="sensitivity")
        self.assertIn("habitat exited 2", str(caught.exception))
        self.assertIn("'bogus' is invalid for '--method", str(caught.exception))

        before = launcher("sensitivity", str(SCENARIO), "--shards", "3", "--habitat", HABITAT, "--out", str(REPORT),
                          *SENSITIVITY_ARGS, "--method", "bogus")  # no --address: would start a local Ray
        result = subprocess.run(before, env=env(), capture_output=True, text=True, timeout=120)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("habitat sensitivity refused the options", result.stderr)
        self.assertIn("'bogus' is invalid for '--method", result.stderr)
        self.assertNotIn("Ray", result.stderr)

        result = subprocess.run(distributed_sensitivity("--kpis", "no_such_kpi", "--max-retries", "3", shards=2),
                                env=env(), capture_output=True, text=True, timeout=600)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("habitat sensitivity refused the options", result.stderr)   # before Ray: no shard ran
        self.assertIn("'no_such_kpi' is not a KPI or world-check figure", result.stderr)
        self.assertNotIn("attempt", result.stderr)
        self.assertFalse(REPORT.exists())

    def test_missing_ray_is_explained(self) -> None:
        """Without an importable ray: one clear line saying what to install, exit 2."""
        code = ("import sys; sys.modules['ray'] = None\n"
                "from habitat_ray.cli import main\n"
                "sys.exit(main(sys.argv[1:]))")
        result = subprocess.run([sys.executable, "-c", code, "run", str(SCENARIO), "--shards", "2",
                                 "--habitat", HABITAT, "--out", str(REPORT)],
                                env=env(), capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("Ray is not installed", result.stderr)
        self.assertIn("python3 -m pip install -r Distributed/requirements.txt", result.stderr)
        self.assertNotIn("Traceback", result.stderr)

    def test_bad_arguments_exit_2(self) -> None:
        """Missing scenario, --shards 0, an --out that is not a report folder: exit 2 with a message, no Ray."""
        not_a_report = TMP / "not-a-report"
        not_a_report.mkdir(exist_ok=True)
        (not_a_report / "notes.txt").write_text("mine\n")
        cases = [
            (["run", str(TMP / "missing.yaml"), "--shards", "2", "--habitat", HABITAT], "no scenario file"),
            (["run", str(SCENARIO), "--shards", "0", "--habitat", HABITAT], "--shards must be at least 1"),
            (["run", str(SCENARIO), "--shards", "2", "--habitat", str(TMP / "no-habitat")], "does not exist"),
            (["run", str(SCENARIO), "--shards", "2", "--habitat", HABITAT, "--out", str(not_a_report)],
             "not a Habitat report folder"),
            (["sensitivity", str(SCENARIO), "--shards", "2", "--habitat", HABITAT, "--ranges", str(TMP / "none.csv")],
             "cannot read --ranges"),
            (["sensitivity", str(SCENARIO), "--shards", "2", "--habitat", HABITAT, "--params", "behavior.nope"],
             "unknown behaviour parameter"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                result = subprocess.run(launcher(*args), env=env(), capture_output=True, text=True, timeout=60)
                self.assertEqual(result.returncode, 2, result.stderr)
                self.assertIn(message, result.stderr)
        self.assertEqual((not_a_report / "notes.txt").read_text(), "mine\n")


# --- /proc helpers (Linux) -------------------------------------------------------------------------------------


def _cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


def _stat(pid: int) -> list[str]:
    """/proc/PID/stat fields after the command name: [state, ppid, ...] ([] if gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def is_alive(pid: int) -> bool:
    """True while `pid` exists and is not a zombie."""
    fields = _stat(pid)
    return bool(fields) and fields[0] not in ("Z", "X")


def is_ray_worker(pid: int) -> bool:
    """True if `pid` looks like a Ray worker process (`ray::...` title or default_worker.py)."""
    line = " ".join(_cmdline(pid))
    return "ray::" in line or "default_worker.py" in line


def shard_processes() -> list[tuple[int, str, int]]:
    """(pid, K/N, parent pid) of every live `habitat run --shard` whose --out is in this module's temp dir."""
    found = []
    work = str(TMP / "work")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        args = _cmdline(int(entry.name))
        if "--shard" in args and "--out" in args:
            i, j = args.index("--shard"), args.index("--out")
            if i + 1 < len(args) and j + 1 < len(args) and args[j + 1].startswith(work):
                fields = _stat(int(entry.name))
                if fields and fields[0] not in ("Z", "X"):
                    found.append((int(entry.name), args[i + 1], int(fields[1])))
    return found


def wait_for_shard_process(shard: str, launcher_proc: subprocess.Popen, ceiling: float = 900) -> tuple[int, int]:
    """(habitat pid, its parent's pid) for the habitat running `--shard SHARD` in this module's temp dir.

    Fails at once, with the launcher's stderr, if the launcher ends first (it failed, or the shard came and went
    unseen); `ceiling` only ends a launcher stuck for good — a busy machine is slow, not wrong."""
    deadline = time.monotonic() + ceiling
    while time.monotonic() < deadline:
        for pid, which, parent in shard_processes():
            if which == shard:
                return pid, parent
        if launcher_proc.poll() is not None:
            _out, err = launcher_proc.communicate()
            raise AssertionError(f"habitat-ray ended (exit {launcher_proc.returncode}) before a habitat --shard {shard} "
                                 f"process was seen; its stderr:\n{err}")
        time.sleep(0.05)
    raise AssertionError(f"no habitat --shard {shard} process appeared in {ceiling:.0f} s (launcher still running)")


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        HABITAT = sys.argv.pop(1)
    result = unittest.main(verbosity=2, exit=False).result
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    # The plain closing line CI reads ("N passed, N failed"), after unittest's own summary.
    print(f"habitat-ray: {result.testsRun - failed - skipped} passed, {failed} failed, {skipped} skipped")
    sys.exit(0 if result.wasSuccessful() else 1)
