"""The body of one shard task, run on a Ray worker.

It is a plain function (the launcher wraps it with `ray.remote`) so it can also be called directly in tests.
It runs `habitat COMMAND SCENARIO --shard K/N --out TMP/shard` (COMMAND `run`, or `sensitivity` for a design's
points) in a fresh temporary directory and returns the shard folder's files as bytes, so the result travels back
through Ray's object store and no shared filesystem is needed.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import shutil

#: How much of habitat's stderr an error message quotes.
STDERR_TAIL_CHARS = 2000


class ShardError(Exception):
    """A shard's habitat failed. Base class; not itself retried."""


class TransientShardError(ShardError):
    """habitat failed in a way that may pass on another try (exit 1, killed by a signal, interrupted).

    The launcher lists only this type in `retry_exceptions`, so Ray retries it up to `--max-retries` times.
    """


class BadInputError(ShardError):
    """habitat exited 2 (bad input or refused destination): the same on every try, so never retried."""


def _die_with_parent(parent_pid: int) -> None:
    """`preexec_fn` for the habitat child: ask Linux to SIGKILL it when the Ray worker that started it dies.

    PR_SET_PDEATHSIG (1) fires when the parent thread exits, so a worker killed by Ray (retry, cancel, node loss)
    never leaves an orphaned simulation burning a CPU. Harmless no-op where prctl is unavailable.
    """
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)
    except Exception:  # not Linux, no libc symbol: keep going without it
        return
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)


def _attempt_number() -> int:
    """1 for a task's first try, 2 for its first retry, ... (1 when not running under Ray)."""
    try:
        import ray

        if not ray.is_initialized():  # called directly (a test): don't let Ray connect this process to a cluster
            return 1
        return int(ray._private.worker.global_worker.core_worker.get_current_task_attempt_number()) + 1
    except Exception:
        return 1


def _node_name() -> str:
    """This node's host name plus the first characters of its Ray node id (several nodes may share a host)."""
    name = socket.gethostname()
    try:
        import ray

        if not ray.is_initialized():  # get_runtime_context() would connect this process to a cluster
            return name
        return f"{name}/{ray.get_runtime_context().get_node_id()[:8]}"
    except Exception:
        return name


def _read_folder(folder: str) -> dict[str, bytes]:
    """Every file under `folder`, keyed by its '/'-separated path relative to `folder`."""
    files = {}
    for root, _dirs, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, folder).replace(os.sep, "/")] = f.read()
    return files


def _tail(path: str) -> str:
    """The last STDERR_TAIL_CHARS characters of a text file ('' if unreadable)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - STDERR_TAIL_CHARS))
            return f.read().decode("utf-8", "replace").strip()
    except OSError:
        return ""


_TEMP_PREFIX = "habitat-shard-"
_TEMP_NAME = re.compile(r"habitat-shard-\d+-of-\d+-(\d+)-")


def _sweep_orphans() -> None:
    """Remove temp dirs of earlier shard tasks on this node whose worker process is gone.

    A worker killed mid-shard (node pressure, `ray.cancel(force=True)`, a test's SIGKILL) cannot clean up after
    itself; its dir name carries its pid, so the next task on the node removes it. Errors are ignored.
    """
    root = tempfile.gettempdir()
    try:
        names = os.listdir(root)
    except OSError:
        return
    for name in names:
        match = _TEMP_NAME.match(name)
        if not match:
            continue
        try:
            os.kill(int(match.group(1)), 0)
            continue  # still running
        except ProcessLookupError:
            shutil.rmtree(os.path.join(root, name), ignore_errors=True)
        except (OSError, ValueError):  # another user's process, or nonsense: leave it
            continue


#: The folder (relative to the task's temp dir, habitat's working directory) where `inputs` are written.
INPUTS_DIR = "inputs"


def run_shard(habitat: str, scenario_text: str, scenario_file: str, index: int, count: int, threads: int,
              extra_args: list[str], command: str = "run", inputs: dict[str, bytes] | None = None) -> dict:
    """Run shard `index` of `count` and return its folder.

    Args:
        habitat: path of the habitat binary on this node; a relative path is resolved against the task's working
            directory (where `--ship-binary` unpacks the binary).
        scenario_text: the scenario YAML, written here to a temp file named `scenario_file`.
        index, count: the shard, 1 <= index <= count.
        threads: `--threads` for habitat (the task reserves as many Ray CPUs).
        extra_args: passed through to habitat (`--people`, `--days`, `--seed`, `--set`, a design's options, ...).
        command: the habitat subcommand, `run` (people blocks) or `sensitivity` (every N-th design point).
        inputs: other files the arguments name ({file name: bytes}, e.g. a `--ranges` CSV), written to
            INPUTS_DIR/<name> beside the scenario; `extra_args` name them by that relative path (habitat runs there).

    Returns:
        {"files": {relative path: bytes}, "attempt", "node", "seconds", "max_rss_kib", "cpu_seconds" (habitat's
        user + system CPU time)}.

    Raises:
        BadInputError: habitat exited 2. TransientShardError: any other failure.
    """
    started = time.monotonic()
    attempt = _attempt_number()
    label = f"shard {index}/{count}"
    binary = habitat if os.path.isabs(habitat) else os.path.abspath(habitat)
    if not os.access(binary, os.X_OK):
        raise BadInputError(f"{label}: no executable habitat at {binary} on node {_node_name()} "
                            "(install it at the same path on every node, or use --ship-binary)")
    _sweep_orphans()
    tmp = tempfile.mkdtemp(prefix=f"{_TEMP_PREFIX}{index}-of-{count}-{os.getpid()}-")
    try:
        scenario = os.path.join(tmp, scenario_file)
        with open(scenario, "w", encoding="utf-8") as f:
            f.write(scenario_text)
        if inputs:
            os.mkdir(os.path.join(tmp, INPUTS_DIR))
            for name, data in inputs.items():
                if os.path.basename(name) != name or name in ("", ".", ".."):
                    raise BadInputError(f"{label}: input file name {name!r} is not a plain file name")
                with open(os.path.join(tmp, INPUTS_DIR, name), "wb") as f:
                    f.write(data)
        out = os.path.join(tmp, "shard")
        cmd = [binary, command, scenario, "--shard", f"{index}/{count}", "--out", out,
               "--threads", str(threads), "--progress", "never", *extra_args]
        stderr_path = os.path.join(tmp, "stderr.txt")
        linux = sys.platform.startswith("linux")
        parent = os.getpid()
        env = None
        if not os.path.isabs(habitat):  # shipped: the libraries the launcher bundled lie beside the binary
            env = dict(os.environ)
            env["LD_LIBRARY_PATH"] = os.pathsep.join(filter(None, [os.path.dirname(binary),
                                                                   env.get("LD_LIBRARY_PATH")]))
        with open(os.path.join(tmp, "stdout.txt"), "wb") as out_f, open(stderr_path, "wb") as err_f:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out_f, stderr=err_f, cwd=tmp, env=env,
                                    preexec_fn=(lambda: _die_with_parent(parent)) if linux else None)
            try:
                # wait4 (not proc.wait) gives this child's own rusage: its peak RSS, not the worker's max so far.
                _pid, status, usage = os.wait4(proc.pid, 0)
            except BaseException:  # cancelled (KeyboardInterrupt) or worker shutting down: don't orphan it
                proc.kill()
                proc.wait()
                raise
            proc.returncode = code = os.waitstatus_to_exitcode(status)
        if code != 0:
            why = f"killed by signal {-code}" if code < 0 else f"exited {code}"
            message = f"{label} (attempt {attempt}, node {_node_name()}): habitat {why}"
            tail = _tail(stderr_path)
            if tail:
                message += ":\n" + tail
            raise (BadInputError if code == 2 else TransientShardError)(message)
        files = _read_folder(out)
        if "manifest.json" not in files:
            raise TransientShardError(f"{label}: habitat exited 0 but wrote no manifest.json in its shard folder")
        return {"files": files, "attempt": attempt, "node": _node_name(),
                "seconds": time.monotonic() - started, "max_rss_kib": usage.ru_maxrss,
                "cpu_seconds": usage.ru_utime + usage.ru_stime}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
