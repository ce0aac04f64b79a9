#!/usr/bin/env python3
"""Run one command under a wall-clock limit and a resident-memory cap.

    guard.py TIMEOUT_S RSS_MB CWD STDOUT_FILE STDERR_FILE -- CMD [ARG...]

Prints one line:  RC KILLED WALL_S PEAK_RSS_MB
  RC      the exit status, or 128+N when the process died of signal N (a SIGKILL from us gives 137)
  KILLED  no | timeout | rss   (whether we had to kill it, and why)
The command runs in its own session with stdin from /dev/null; on a limit the whole session is SIGKILLed.
Also importable: guarded(...) returns (rc, killed, wall_s, peak_rss_mb).
"""
import os
import signal
import subprocess
import sys
import time


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def wait_guarded(p, timeout, rss_mb, start=None):
    """Wait for Popen P under the limits; returns (rc, killed, wall_s, peak_rss_mb)."""
    start = time.monotonic() if start is None else start
    killed, peak, status, usage = "no", 0, 0, None
    nap = 0.002
    while True:
        try:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        except ChildProcessError:  # already reaped by the caller (Popen.poll): take its status
            rc = p.returncode if p.returncode is not None else 0
            status = (-rc) & 0x7f if rc < 0 else (rc & 0xff) << 8
            break
        if pid:
            break
        r = rss_kb(p.pid)
        peak = max(peak, r)
        why = None
        if r > rss_mb * 1024:
            why = "rss"
        elif time.monotonic() - start >= timeout:
            why = "timeout"
        if why:
            killed = why
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
            _, status, usage = os.wait4(p.pid, 0)
            break
        time.sleep(nap)
        nap = min(nap * 1.5, 0.05)
    p.returncode = -1  # reaped here; keep Popen from waiting again
    wall = time.monotonic() - start
    rc = 128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    peak = max(peak, usage.ru_maxrss if usage else 0)
    return rc, killed, wall, peak // 1024


def guarded(cmd, cwd, timeout, rss_mb, out_path, err_path, env=None, stdin=None):
    start = time.monotonic()
    with open(out_path, "wb") as fo, open(err_path, "wb") as fe:
        try:
            p = subprocess.Popen(cmd, cwd=cwd, stdin=stdin if stdin is not None else subprocess.DEVNULL,
                                 stdout=fo, stderr=fe, env=env, start_new_session=True)
        except OSError as e:
            fe.write(f"guard: cannot start {cmd[0]}: {e}\n".encode())
            return 127, "no", 0.0, 0
    return wait_guarded(p, timeout, rss_mb, start)


def main():
    args = sys.argv[1:]
    if len(args) < 7 or args[5] != "--":
        sys.exit("usage: guard.py TIMEOUT_S RSS_MB CWD STDOUT STDERR -- CMD...")
    rc, killed, wall, peak = guarded(args[6:], args[2], float(args[0]), int(args[1]), args[3], args[4])
    print(f"{rc} {killed} {wall:.2f} {peak}")


if __name__ == "__main__":
    main()
