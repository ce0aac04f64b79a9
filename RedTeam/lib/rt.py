"""Shared helpers for the red-team scripts in RedTeam/extra/ (Python standard library only).

- Sandbox: a folder from tempfile.mkdtemp with canary files in nested folders; every path a script touches
  is inside it. snapshot() records every entry (type, size, mode, mtime, device numbers, link target and a
  sha256 of regular files) so a script can prove that nothing changed, or list what did.
- run(): one command under a wall-clock limit and a resident-memory cap (lib/guard.py), with HOME pointing
  into the sandbox; returns a Result with the exit status (128+N for signal N), stdout and stderr.
- Suite: PASS / FAIL / SKIP lines and the closing "N passed, M failed" line; exit status 1 on any FAIL.
"""
import atexit
import hashlib
import json
import os
import shutil
import stat
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from guard import guarded  # noqa: E402

CRASH_MARKERS = ("Swift runtime failure", "Fatal error", "Program crashed", "Backtracing from",
                 "Segmentation fault", "Illegal instruction", "Stack dump")
# library internals a user should never have to read
FORBIDDEN = ("NSCocoaErrorDomain", "Error Domain=", "yaml_", "DecodingError", "Backtracing")

TIMEOUT = float(os.environ.get("TIMEOUT", "20"))
RSS_MB = int(os.environ.get("RSS_MB", "2048"))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def habitat_from_argv(usage):
    if len(sys.argv) < 2:
        sys.exit(f"usage: {usage}")
    h = os.path.abspath(sys.argv[1])
    if not (os.path.isfile(h) and os.access(h, os.X_OK)):
        print(f"not an executable file: {h}", file=sys.stderr)
        sys.exit(2)
    return h, (sys.argv[2] if len(sys.argv) > 2 else "")


def replace_file(p, data):
    """Writes `data` (bytes or text) at `p`, first removing whatever stands there (a file, a link or a folder)."""
    if os.path.islink(p) or os.path.isfile(p):
        os.remove(p)
    elif os.path.isdir(p):
        shutil.rmtree(p)
    with open(p, "wb") as fh:
        fh.write(data if isinstance(data, bytes) else data.encode())


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def tree_hashes(root):
    """{relative path: sha256 | 'dir' | 'link->target'} for everything under ROOT (symlinks not followed)."""
    out = {}
    if not os.path.lexists(root):
        return out
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = "link->" + os.readlink(p)
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = "dir"
            elif stat.S_ISREG(st.st_mode):
                out[rel] = sha256(p)
            else:
                out[rel] = f"special {stat.S_IFMT(st.st_mode):o} {st.st_rdev}"
    return out


class Result:
    def __init__(self, rc, killed, wall, rss, out, err):
        self.rc, self.killed, self.wall, self.rss, self.out, self.err = rc, killed, wall, rss, out, err

    @property
    def crashed(self):
        if self.killed != "no":
            return False
        return any(m in self.err for m in CRASH_MARKERS)

    @property
    def first_err(self):
        for line in self.err.splitlines():
            if line.strip():
                return line.strip()[:160]
        return ""

    def err_lines(self):
        return [l for l in self.err.splitlines() if l.strip()]

    def forbidden(self):
        return [w for w in FORBIDDEN if w in self.err]

    def brief(self):
        s = f"exit {self.rc}"
        if self.killed != "no":
            s += f" (killed: {self.killed} after {self.wall:.1f}s, {self.rss} MB)"
        if self.crashed:
            s += " CRASH"
        e = self.first_err
        return s + (f": {e}" if e else "")


class Sandbox:
    """mkdtemp folder; box/ inside it holds everything the case may see, logs/ holds captured output."""
    count = 0

    def __init__(self, label):
        self.root = tempfile.mkdtemp(prefix=f"habitat-redteam-{label}.")
        self.box = os.path.join(self.root, "box")
        self.logs = os.path.join(self.root, "logs")
        self.home = os.path.join(self.box, "home")
        os.makedirs(self.logs)
        os.makedirs(self.home)
        self.canaries = {}
        atexit.register(self.cleanup)  # also when a script stops on an exception

    def path(self, *parts):
        return os.path.join(self.box, *parts)

    def mkdir(self, *parts):
        p = self.path(*parts)
        os.makedirs(p, exist_ok=True)
        return p

    def write(self, rel, text, mode="w"):
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, mode) as f:
            f.write(text)
        return p

    def canary(self, *dirs):
        """A KEEP.txt with unique content in each folder (relative to box/)."""
        for d in dirs:
            p = self.mkdir(d) if d else self.box
            f = os.path.join(p, "KEEP.txt")
            with open(f, "w") as fh:
                fh.write(f"canary {d or '.'} {os.urandom(8).hex()}\n")
            self.canaries[f] = sha256(f)

    def canaries_intact(self):
        return [os.path.relpath(f, self.box) for f, h in self.canaries.items()
                if not os.path.isfile(f) or os.path.islink(f) or sha256(f) != h]

    def snapshot(self, root=None, skip=()):
        """{relative path: (kind, size, mode, mtime_ns, rdev, link target, sha256)} for everything under root."""
        root = root or self.box
        snap = {}
        for dirpath, dirnames, filenames in os.walk(root):
            rel_dir = os.path.relpath(dirpath, root)
            dirnames[:] = [d for d in dirnames if os.path.normpath(os.path.join(rel_dir, d)) not in skip]
            for n in dirnames + filenames:
                p = os.path.join(dirpath, n)
                rel = os.path.normpath(os.path.relpath(p, root))
                try:
                    st = os.lstat(p)
                except OSError:
                    continue
                kind = stat.S_IFMT(st.st_mode)
                link = os.readlink(p) if stat.S_ISLNK(st.st_mode) else ""
                digest = sha256(p) if stat.S_ISREG(st.st_mode) else ""
                snap[rel] = (kind, st.st_size if stat.S_ISREG(st.st_mode) else 0, stat.S_IMODE(st.st_mode),
                             st.st_mtime_ns, st.st_rdev, link, digest)
        st = os.lstat(root)
        snap["."] = (stat.S_IFMT(st.st_mode), 0, stat.S_IMODE(st.st_mode), 0, 0, "", "")
        return snap

    @staticmethod
    def diff(before, after, ignore_dir_mtime=True):
        """Paths created, removed or changed between two snapshots (directory mtimes ignored if asked)."""
        changed = []
        for k in sorted(set(before) | set(after)):
            a, b = before.get(k), after.get(k)
            if a == b:
                continue
            if a and b and ignore_dir_mtime and a[0] == b[0] == stat.S_IFDIR and a[:3] == b[:3] and a[4:] == b[4:]:
                continue
            changed.append(("+" if a is None else "-" if b is None else "~") + k)
        return changed

    def run(self, cmd, cwd=None, timeout=None, rss_mb=None, env=None, name=None):
        Sandbox.count += 1
        name = name or f"cmd{Sandbox.count}"
        out, err = os.path.join(self.logs, name + ".out"), os.path.join(self.logs, name + ".err")
        e = dict(os.environ)
        e["HOME"] = self.home
        e["GIT_OPTIONAL_LOCKS"] = "0"  # habitat runs `git status` on its source tree: keep that read-only
        e.update(env or {})
        rc, killed, wall, rss = guarded(cmd, cwd or self.box, timeout or TIMEOUT, rss_mb or RSS_MB, out, err, env=e)
        with open(out, "rb") as f:
            o = f.read().decode("utf-8", "replace")
        with open(err, "rb") as f:
            r = f.read().decode("utf-8", "replace")
        return Result(rc, killed, wall, rss, o, r)

    def cleanup(self):
        if not os.path.isdir(self.root):
            return
        # make sure nothing we created is immutable or unwritable before removing the folder
        for dirpath, dirnames, _ in os.walk(self.root):
            for d in dirnames:
                try:
                    p = os.path.join(dirpath, d)
                    if not os.path.islink(p):
                        os.chmod(p, 0o755)
                except OSError:
                    pass
        shutil.rmtree(self.root, ignore_errors=True)


class Suite:
    def __init__(self, title, filt=""):
        self.title, self.filter = title, filt
        self.passed = self.failed = self.skipped = 0
        print(f"== {title}", flush=True)

    def wants(self, name):
        return not self.filter or self.filter in name

    def record(self, name, problems, detail=""):
        """PASS when PROBLEMS is empty; otherwise FAIL with the problems joined."""
        if problems:
            self.failed += 1
            print(f"{name:<46} FAIL  {'; '.join(problems)[:400]}", flush=True)
        else:
            self.passed += 1
            print(f"{name:<46} PASS  {detail[:200]}", flush=True)

    def skip(self, name, why):
        self.skipped += 1
        print(f"{name:<46} SKIP  {why}", flush=True)

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)


def staging_left(folder, name=None):
    """Hidden staging entries (.NAME.partial-*) in FOLDER."""
    try:
        entries = os.listdir(folder)
    except OSError:
        return []
    pre = f".{name}.partial-" if name else None
    return [e for e in entries if (e.startswith(pre) if pre else (e.startswith(".") and ".partial-" in e))]


def common_problems(res, expect_rcs, what=""):
    """Crash, hang, memory blow-up or an unexpected exit status."""
    p = []
    if res.killed == "timeout":
        p.append(f"{what}hung (killed after {res.wall:.1f}s)")
    elif res.killed == "rss":
        p.append(f"{what}over the memory cap ({res.rss} MB)")
    elif res.crashed or (res.rc >= 128 and res.rc not in expect_rcs):
        p.append(f"{what}crashed ({res.brief()})")
    elif res.rc not in expect_rcs:
        p.append(f"{what}exit {res.rc}, expected {'/'.join(map(str, sorted(expect_rcs)))}"
                 + (f" ({res.first_err})" if res.first_err else ""))
    return p


def refusal_problems(res, expect_rcs, sb, before):
    """What is wrong with a refusal: `common_problems`, no message on stderr, or anything written in the sandbox."""
    p = common_problems(res, expect_rcs)
    if not res.err.strip():
        p.append("no message on stderr")
    changed = Sandbox.diff(before, sb.snapshot())
    if changed:
        p.append("wrote: " + " ".join(changed[:5]))
    return p


# --- shard records (habitat merge): the seal, computed here as habitat computes it --------------------------------

def fnv1a64(data, h=0xCBF29CE484222325):
    """FNV-1a 64 of bytes, continuing from hash h (the offset basis by default)."""
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def shard_record_line(ident, accumulator, old=False):
    """A shard-state.jsonl record line (bytes) for the identity dict `ident` (shard "K/N", arm, arm_name,
    replication, people, from, to) and the accumulator's JSON bytes, sealed as habitat seals it: FNV-1a 64 of the
    bytes before ',"seal":' then the accumulator's bytes (format 7). `old=True` writes what a forger who knows only
    the format-6 checksum writes: the hash of the accumulator bytes alone, in the same place."""
    if "seal" not in ident and "checksum" in ident:     # a format-6 record (habitat before issue 30)
        h = fnv1a64(accumulator)
        head = b'{"arm":%d,"replication":%d,"people":%d' % (ident["arm"], ident["replication"], ident["people"])
        return head + b',"checksum":"%016x","accumulator":' % h + accumulator + b"}"
    head = (b'{"shard":' + json.dumps(ident["shard"]).encode() + b',"arm":%d,"arm_name":' % ident["arm"]
            + json.dumps(ident["arm_name"]).encode()
            + b',"replication":%d,"people":%d,"from":%d,"to":%d' % (ident["replication"], ident["people"], ident["from"], ident["to"]))
    h = fnv1a64(accumulator) if old else fnv1a64(accumulator, fnv1a64(head))
    return head + b',"seal":"%016x","accumulator":' % h + accumulator + b"}"


def shard_record_parse(line):
    """(identity dict, accumulator as parsed JSON) of a record line."""
    r = json.loads(line)
    acc = r.pop("accumulator")
    return r, acc


def shard_record_dump(acc):
    """The accumulator's JSON bytes (compact)."""
    return json.dumps(acc, separators=(",", ":")).encode()


def good_shards(sb, suite, habitat, scenario, size, count=3):
    """A working folder `work` in the sandbox (with a canary) holding a copy of Scenarios/`scenario` and its `count`
    shard folders `good-1` … `good-N` (`run --shard K/N` with `size`): returns (cwd, [folder names]). A shard that
    fails to run ends the part with one failed `setup-shards` case."""
    cwd = sb.mkdir("work")
    sb.canary("", "work")
    shutil.copy(os.path.join(REPO, "Scenarios", scenario), os.path.join(cwd, scenario))
    good = []
    for k in range(1, count + 1):
        d = f"good-{k}"
        r = sb.run([habitat, "run", scenario, "--shard", f"{k}/{count}", "--out", d] + size, cwd=cwd, name=f"shard-{k}")
        if r.rc != 0:
            suite.record("setup-shards", [f"run --shard {k}/{count} failed: {r.brief()}"])
            sb.cleanup()
            suite.finish()
        good.append(d)
    return cwd, good


def merge_with(sb, habitat, cwd, good, second, tag, rss_mb):
    """`merge` of the good shards 1 and 3 with `second` in shard 2's place, into `out-TAG`: returns (result, out)."""
    out = os.path.join(cwd, f"out-{tag}")
    r = sb.run([habitat, "merge", good[0], second, good[2], "--out", out, "--progress", "never"], cwd=cwd, rss_mb=rss_mb, name=tag)
    return r, out


def merge_refused_problems(r, out, cwd, wants):
    """What is wrong with a merge that must be refused: not exit 2, a message without every text of `wants`, library
    internals, or a report or staging left."""
    p = common_problems(r, {2})
    if r.rc == 2:
        p += [f"the message does not say {w!r}: {r.first_err!r}" for w in wants if w not in r.err]
    if r.forbidden():
        p.append("library internals in the message: " + " ".join(r.forbidden()))
    if os.path.exists(out) or staging_left(cwd):
        p.append("wrote the report or left staging")
    return p


def snapshot_with_links(sb):
    """The sandbox's snapshot, every entry with its link count too (a hard link made or broken shows)."""
    s = sb.snapshot()
    out = {}
    for rel, entry in s.items():
        try:
            n = os.lstat(os.path.join(sb.box, rel)).st_nlink if rel != "." else 0
        except OSError:
            n = -1
        out[rel] = entry + (n if entry[0] != stat.S_IFDIR else 0,)
    return out


def changed_except(before, after, inside=None):
    """Paths created, removed or changed between two snapshots, directory mtimes ignored; those under `inside`
    (relative to box/) allowed."""
    out = []
    for c in Sandbox.diff(before, after):
        p = c[1:]
        if inside and (p == inside or p.startswith(inside + "/")):
            continue
        out.append(c)
    return out
