#!/usr/bin/env python3
"""Lock tampering: whatever stands at a destination's lock name `.rep.lock` that Habitat did not write (issue 40).

    RedTeam/extra/lock.py HABITAT [FILTER]

In a sandbox (mktemp -d), for each of `run --out rep`, `merge S1 S2 --out rep` and `check --record --baseline rep`,
something is planted at work/.rep.lock first:
  - a user's file with a `pid:` line; an old-style record (`pid:` … `command:` lines) of a dead pid; a forged record
    of a dead pid with Habitat's first line but not exactly its format (a clock of `1:2:3`); a genuine record with an
    extra key; a genuine record with trailing bytes; a 1-byte file; an empty file the user made; a user's `pid:` file
    of mode 000;
  - a hard link to a user's file (`pid:` notes) and a hard link to a user's copy of a genuine record; a symbolic link
    to a file holding a genuine record; a dangling symbolic link; a folder (with a file in it); a FIFO; a socket; a
    3 GB sparse file; a genuine record made immutable or append-only (`chattr +i`, `+a`; SKIP where chattr fails).
Each must end with exit 2 and one stderr line (at most 1 KB) naming `.rep.lock` and why it is not Habitat's (`2 hard
links`, `symbolic link`, `named pipe`, `does not hold a lock record`, …), no crash and no library words,
within TIMEOUT and RSS_MB (at most 512 here); `rep` not made, no staging left; every planted file kept byte for byte
with its type, link count, mode, size, mtime and inode flags (a hard link's user file too), canaries intact.

Spellings of one folder: while a run holds rep/'s lock, `run --out` with `./rep`, `rep/`, `x/../rep` and `up/rep`
(`up` a symbolic link to the working folder) are each refused at once (exit 2) naming the holder's pid.
Controls: a genuine lock left by a SIGKILLed run is taken over by each command (exit 0) and removed.
"""
import fcntl
import os
import shutil
import signal
import socket
import stat
import struct
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # keep __pycache__ out of the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rt  # noqa: E402

H, FILTER = rt.habitat_from_argv("lock.py HABITAT [FILTER]")
suite = rt.Suite("lock tampering (.NAME.lock beside a destination)", FILTER)
RSS = min(rt.RSS_MB, 512)

sb = rt.Sandbox("lock")
cwd = sb.mkdir("work")
sb.canary("", "work")
LOCK = os.path.join(cwd, ".rep.lock")
SCEN = "name: ck\nhorizon_days: 7\nreplications: 1\npopulation:\n  installs: 50\n"
sb.write("work/ck.yaml", SCEN)
SIZE = ["--people", "20", "--days", "3", "--replications", "1"]
COMMANDS = {
    "run": ["run", "ck.yaml"] + SIZE + ["--progress", "never", "--out", "rep"],
    "merge": ["merge", "shards/s1", "shards/s2", "--progress", "never", "--out", "rep"],
    "check": ["check", "ck.yaml", "--baseline", "rep", "--record", "--reason", "r"] + SIZE,
}
for k in (1, 2):
    r = sb.run([H, "run", "ck.yaml", "--shard", f"{k}/2", "--out", f"shards/s{k}"] + SIZE + ["--progress", "never"],
               cwd=cwd, name=f"shard{k}")
    if r.rc != 0:
        suite.record("setup-shards", [f"run --shard {k}/2 failed: {r.brief()}"])
        sb.cleanup()
        suite.finish()

# a genuine lock record, as Habitat writes it (pid 999999 runs nowhere)
GENUINE = ("habitat-run-lock 1\npid: 999999\nprocess_start: 12\nstarted: 01:02:03\nhost: box\n"
           "command: habitat run --out rep\n")
FS_IOC_GETFLAGS = 0x80086601


def flags(p):
    """Inode flags (FS_IOC_GETFLAGS) of a regular file or folder; None where they cannot be read."""
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        return struct.unpack("l", fcntl.ioctl(fd, FS_IOC_GETFLAGS, struct.pack("l", 0)))[0] & 0xFFFFFFFF
    except OSError:
        return None
    finally:
        os.close(fd)


def standing(p):
    """What must not change about P: type, links, mode, size, mtime, link target, flags and (up to 64 MB) bytes."""
    try:
        st = os.lstat(p)
    except OSError:
        return None
    kind = stat.S_IFMT(st.st_mode)
    regular = stat.S_ISREG(st.st_mode)
    return (kind, st.st_nlink, stat.S_IMODE(st.st_mode), st.st_size if regular else 0, st.st_mtime_ns,
            os.readlink(p) if stat.S_ISLNK(st.st_mode) else "",
            flags(p) if regular or stat.S_ISDIR(st.st_mode) else None,
            digest(p) if regular and st.st_size <= 64 << 20 else "")


def digest(p):
    try:
        return rt.sha256(p)
    except OSError as e:   # mode 000 when not root
        return f"unreadable ({e.errno})"


def chattr(flag, p):
    try:
        return subprocess.run(["chattr", flag, p], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def clear():
    """Removes whatever the last case planted or left in work/ (flags and modes undone first)."""
    for e in os.listdir(cwd):
        if e in ("KEEP.txt", "ck.yaml", "shards"):
            continue
        p = os.path.join(cwd, e)
        if not os.path.islink(p):
            chattr("-ia", p)
            try:
                os.chmod(p, 0o755 if os.path.isdir(p) else 0o644)
            except OSError:
                pass
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p, ignore_errors=True)
        else:
            os.unlink(p)


def write(p, data, mode=None):
    with open(p, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
    if mode is not None:
        os.chmod(p, mode)


# ------------------------------------------------------------------ the plants: each returns the paths to keep
def plain(text, mode=None):
    def plant():
        write(LOCK, text, mode)
        return [LOCK]
    return plant


def hard_link(text):
    def plant():
        notes = os.path.join(cwd, "notes.txt")
        write(notes, text)
        os.link(notes, LOCK)
        return [LOCK, notes]
    return plant


def symlink_to_record():
    target = os.path.join(cwd, "record.txt")
    write(target, GENUINE)
    os.symlink("record.txt", LOCK)
    return [LOCK, target]


def dangling():
    os.symlink("nowhere/.rep.lock", LOCK)
    return [LOCK]


def folder():
    os.mkdir(LOCK)
    write(os.path.join(LOCK, "inside.txt"), "mine\n")
    return [LOCK, os.path.join(LOCK, "inside.txt")]


def fifo():
    os.mkfifo(LOCK)
    return [LOCK]


def unix_socket():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(LOCK)
    s.close()
    return [LOCK]


def sparse():
    with open(LOCK, "wb") as f:
        f.truncate(3 << 30)
    return [LOCK]


def flagged(flag):
    def plant():
        write(LOCK, GENUINE)
        if not chattr(flag, LOCK):
            return None
        return [LOCK]
    return plant


# (name, plant, what the message must say of why the file is not Habitat's)
NOT_A_RECORD = "does not hold a lock record" if os.getuid() == 0 else "cannot open it"
PLANTS = [
    ("pid-line", plain("pid: 1\n"), "does not hold a lock record"),
    ("old-style-record-dead-pid", plain("pid: 999999\nprocess_start: 12\nstarted: 01:02:03\nhost: box\ncommand: habitat run\n"),
     "does not hold a lock record"),
    ("forged-record-not-exact", plain(GENUINE.replace("01:02:03", "1:2:3")), "does not hold a lock record"),
    ("record-extra-key", plain(GENUINE + "note: mine\n"), "does not hold a lock record"),
    ("record-trailing-garbage", plain(GENUINE + "garbage"), "does not hold a lock record"),
    ("one-byte", plain("x"), "does not hold a lock record"),
    ("empty-user-file", plain(""), "empty"),
    ("mode-000-pid-file", plain("pid: 1\nmy notes\n", 0), NOT_A_RECORD),
    ("hardlink-user-file", hard_link("pid: 4242\nmy notes\n"), "2 hard links"),
    ("hardlink-genuine-record", hard_link(GENUINE), "2 hard links"),
    ("symlink-to-record", symlink_to_record, "symbolic link"),
    ("dangling-symlink", dangling, "symbolic link"),
    ("folder", folder, "folder"),
    ("fifo", fifo, "named pipe"),
    ("socket", unix_socket, "socket"),
    ("sparse-3g", sparse, "3221225472 bytes"),
    ("immutable-record", flagged("+i"), "immutable"),
    ("append-only-record", flagged("+a"), "append-only"),
]


def debris():
    return sorted(e for e in os.listdir(cwd) if ".partial-" in e or e == "rep")


for cmd_name, args in COMMANDS.items():
    for plant_name, plant, why in PLANTS:
        name = f"lock-{plant_name}-{cmd_name}"
        if not suite.wants(name):
            continue
        clear()
        kept = plant()
        if kept is None:
            suite.skip(name, "chattr does not work here")
            clear()
            continue
        before = {p: standing(p) for p in kept}
        r = sb.run([H] + args, cwd=cwd, rss_mb=RSS, name=name)
        problems = rt.common_problems(r, {2})
        lines = r.err_lines()
        if r.rc == 2:
            if len(lines) != 1:
                problems.append(f"{len(lines)} stderr lines")
            if ".rep.lock" not in r.err:
                problems.append(f"the message does not name .rep.lock: {r.first_err!r}")
            elif why not in r.err:
                problems.append(f"the message does not say why ({why!r}): {r.first_err!r}")
            if any(len(l.encode()) > 1024 for l in lines):
                problems.append("a stderr line over 1 KB")
        if r.forbidden():
            problems.append("library internals: " + " ".join(r.forbidden()))
        for p in kept:
            now = standing(p)
            if now != before[p]:
                problems.append(f"{os.path.relpath(p, cwd)} changed: {before[p]} -> {now}")
        left = debris()
        if left:
            problems.append("made or left: " + " ".join(left))
        suite.record(name, problems, r.first_err.removeprefix("habitat: ")[:110])
        clear()


# ------------------------------------------------------------------ spellings of one folder
class Holder:
    """A run holding rep/'s lock (large enough to last a few seconds)."""

    def __init__(self, people):
        self.err = open(os.path.join(sb.logs, "holder.err"), "wb")
        self.p = subprocess.Popen([H, "run", "ck.yaml", "--people", str(people), "--days", "60", "--replications", "1",
                                   "--progress", "never", "--threads", "1", "--out", "rep"], cwd=cwd,
                                  env=dict(os.environ, HOME=sb.home, GIT_OPTIONAL_LOCKS="0"), stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=self.err, start_new_session=True)

    def wait_lock(self, limit=20):
        t = time.monotonic()
        while time.monotonic() - t < limit and self.p.poll() is None:
            if os.path.exists(LOCK):
                return True
            time.sleep(0.005)
        return False

    def kill(self):
        if self.p.poll() is None:
            os.killpg(self.p.pid, signal.SIGKILL)
        self.p.wait()
        self.err.close()


SPELLINGS = {"./rep": "dot-rep", "rep/": "rep-slash", "x/../rep": "x-dotdot-rep", "up/rep": "symlink-parent-rep"}
if any(suite.wants(f"lock-spelling-{s}") for s in SPELLINGS.values()):
    clear()
    os.mkdir(os.path.join(cwd, "x"))
    os.symlink(".", os.path.join(cwd, "up"))
    holder = Holder(20000)
    held = holder.wait_lock()
    for sp, label in SPELLINGS.items():
        name = f"lock-spelling-{label}"
        if not suite.wants(name):
            continue
        if not held or holder.p.poll() is not None:
            suite.record(name, ["the holding run did not hold rep/'s lock"])
            continue
        r = sb.run([H, "run", "ck.yaml"] + SIZE + ["--progress", "never", "--out", sp], cwd=cwd, rss_mb=RSS, name=name)
        problems = rt.common_problems(r, {2})
        if r.rc == 2 and f"another habitat run (pid {holder.p.pid}" not in r.err:
            problems.append(f"the message does not name the holder (pid {holder.p.pid}): {r.first_err!r}")
        suite.record(name, problems, r.first_err.removeprefix("habitat: ")[:110])
    holder.kill()
    clear()


# ------------------------------------------------------------------ control: a lock left by SIGKILL is taken over
for cmd_name, args in COMMANDS.items():
    name = f"lock-control-stale-sigkill-{cmd_name}"
    if not suite.wants(name):
        continue
    clear()
    holder = Holder(20000)
    held = holder.wait_lock()
    time.sleep(0.1)
    holder.kill()
    problems = [] if held and os.path.isfile(LOCK) else ["the killed run left no lock to take over"]
    r = sb.run([H] + args, cwd=cwd, rss_mb=RSS, name=name)
    problems += rt.common_problems(r, {0})
    left = [e for e in os.listdir(cwd) if ".partial-" in e or e == ".rep.lock"]
    if left:
        problems.append("left: " + " ".join(sorted(left)))
    if not os.path.isfile(os.path.join(cwd, "rep", "manifest.json")):
        problems.append("no report written")
    suite.record(name, problems, "taken over and removed")
    clear()

lost = sb.canaries_intact()
if lost:
    suite.record("canaries", ["lost: " + " ".join(lost)])
sb.cleanup()
suite.finish()
