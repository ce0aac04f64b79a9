#!/usr/bin/env python3
"""The page writer's red-team cases in one long-lived Python process (issue 41): pandas, plotly and numpy are
imported once, not once per case.

Two halves in one file:

- `Batch` (the red-team part's side, `RedTeam/extra/pagewriter.py`): `batch.run(argv, cwd, timeout, env, name)`
  runs `python3 Notebooks/report_page.py ARGV…` in the worker and returns an `rt.Result` exactly as `Sandbox.run`
  does for a separate process — the exit status, stdout and stderr (kept in the sandbox's logs/NAME.out|.err), and
  `killed` with the watchdog's limits: the worker's resident memory is polled against RSS_MB while a case runs, and
  a case that does not answer within its TIMEOUT (a FIFO opened for reading, a loop, a hang in C code) has the whole
  worker SIGKILLed, is reported `killed: timeout` (`rss`, or 128+N when the worker died of signal N) like a killed
  process, and the next case starts a fresh worker. The batch never hangs on a case.
- the worker (`python3 pagewriter_batch.py REQ_FD RESP_FD`): imports `report_page` once, then for each request (one
  JSON line on REQ_FD: argv, cwd, env, stdout and stderr files) does what `python3 report_page.py ARGV…` does in a
  process of its own — `sys.exit(report_page.main(argv))` — in the case's working directory, with the case's
  environment, `sys.argv`, stdin from /dev/null, and file descriptors 1 and 2 redirected to the case's files (C-level
  writes and warnings land there too). The exit status is the one Python would give: `main`'s return value; for
  `SystemExit` its code (None → 0, an int → itself, anything else printed on stderr → 1); for an uncaught exception
  its traceback on stderr and 1; KeyboardInterrupt → 130. Between cases it restores the working directory, the
  environment, `sys.argv`, the warnings filters and registries (a warning "once per file" warns again, as in a new
  process), clears the `functools.lru_cache`s of the page writer's modules (report_spec's parsed specification is
  read again), closes pyplot figures and collects garbage. It answers one JSON line on RESP_FD: {"rc", "wall",
  "cpu"} (its CPU seconds so far).

The worker starts with the environment of the first case (matplotlib reads MPLCONFIGDIR at import) and no bytecode
written (`sys.dont_write_bytecode`).
"""
import contextlib
import gc
import json
import os
import resource
import select
import signal
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
NOTEBOOKS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "Notebooks")
PAGE = os.path.join(NOTEBOOKS, "report_page.py")


# --- the part's side ------------------------------------------------------------------------------------------------

class Batch:
    """A long-lived worker running the page writer in-process; restarted after a case that killed it."""

    def __init__(self, sandbox, python=sys.executable):
        self.sb, self.python, self.proc = sandbox, python, None
        self.cases = self.starts = 0
        self.cpu = {}    # the CPU seconds each worker had used at its last answer (imports included), by start

    def _start(self, cwd, env):
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        self.proc = subprocess.Popen([self.python, os.path.abspath(__file__), str(req_r), str(resp_w)], cwd=cwd,
                                     env=env, stdin=subprocess.DEVNULL, pass_fds=(req_r, resp_w),
                                     start_new_session=True)
        os.close(req_r)
        os.close(resp_w)
        self.req, self.resp, self.buf = os.fdopen(req_w, "w"), resp_r, b""
        self.starts += 1

    def _kill(self):
        """SIGKILLs the worker's session and reaps it; returns its wait status."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        return self._reap()

    def _reap(self):
        _, status = os.waitpid(self.proc.pid, 0)
        self.proc.returncode = -1     # reaped here
        try:
            self.req.close()
        except OSError:
            pass
        os.close(self.resp)
        self.proc = None
        return status

    def run(self, argv, cwd, timeout, rss_mb, env, name):
        """`python3 report_page.py ARGV…` in the worker; an `rt.Result` as `Sandbox.run` gives for a process."""
        import rt
        from guard import rss_kb
        e = dict(os.environ)
        e["HOME"] = self.sb.home
        e["GIT_OPTIONAL_LOCKS"] = "0"
        e.update(env or {})
        out, err = os.path.join(self.sb.logs, name + ".out"), os.path.join(self.sb.logs, name + ".err")
        if self.proc is None:
            self._start(self.sb.logs, e)   # between cases it waits outside the box
        self.cases += 1
        start = time.monotonic()
        killed, peak, answer, status = "no", 0, None, None
        try:
            self.req.write(json.dumps({"argv": [PAGE, *argv], "cwd": cwd, "env": e, "out": out, "err": err}) + "\n")
            self.req.flush()
        except BrokenPipeError:      # the worker died between cases: say so on this case
            status = self._reap()
        nap = 0.002
        while status is None and answer is None:
            ready, _, _ = select.select([self.resp], [], [], nap)
            peak = max(peak, rss_kb(self.proc.pid))
            if ready:
                chunk = os.read(self.resp, 65536)
                if not chunk:            # the worker ended mid-case (a crash, os._exit): its status is the case's
                    status = self._reap()
                    break
                self.buf += chunk
                if b"\n" in self.buf:
                    line, self.buf = self.buf.split(b"\n", 1)
                    answer = json.loads(line)
                    break
            why = "rss" if peak > rss_mb * 1024 else "timeout" if time.monotonic() - start >= timeout else None
            if why:
                killed, status = why, self._kill()
            nap = min(nap * 1.5, 0.05)
        wall = time.monotonic() - start
        if answer is not None:
            rc = answer["rc"]
            self.cpu[self.starts] = answer["cpu"]
        else:
            rc = 128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        for p in (out, err):
            if not os.path.exists(p):
                open(p, "wb").close()
        with open(out, "rb") as f:
            o = f.read().decode("utf-8", "replace")
        with open(err, "rb") as f:
            r = f.read().decode("utf-8", "replace")
        return rt.Result(rc, killed, wall, peak // 1024, o, r)

    def close(self):
        """Ends the worker (EOF on its requests) and waits for it."""
        if self.proc is not None:
            self.req.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._kill()
                return
            os.close(self.resp)
            self.proc = None


# --- the worker -----------------------------------------------------------------------------------------------------

def exit_status(code):
    """What Python's exit gives for `sys.exit(code)`: None → 0, an int → itself (mod 256), else printed → 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def reset_state(modules):
    """What a new process would not carry over from the case before (the warnings filters are restored by the
    case's `warnings.catch_warnings`)."""
    for m in list(sys.modules.values()):
        reg = getattr(m, "__warningregistry__", None)
        if isinstance(reg, dict):
            reg.clear()
    for m in modules:
        for v in list(vars(m).values()):
            if callable(getattr(v, "cache_clear", None)) and getattr(v, "__module__", None) == m.__name__:
                v.cache_clear()
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")
    gc.collect()


def print_uncaught(e):
    """The traceback Python prints for an uncaught exception, without this worker's own frame (run_case's call)."""
    traceback.print_exception(type(e), e, e.__traceback__.tb_next if e.__traceback__ else None)


@contextlib.contextmanager
def fds_to(out_fd, err_fd):
    """Standard output and error (fds 1 and 2, so C libraries' writes too) go to OUT_FD and ERR_FD inside the block;
    both are flushed and put back as they were after it, whatever it raised."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])


def run_case(req, report_page, home, preamble):
    """One request: the page writer's command line in this process; returns the exit status. PREAMBLE is what the
    import wrote on (stdout, stderr), which a process of its own would write first in every case; REPORT_PAGE is
    None when the import failed (its traceback is in the preamble), and the case exits 1 as such a process would."""
    import warnings
    saved_env, saved_argv = dict(os.environ), sys.argv
    fo = os.open(req["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    fe = os.open(req["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    with fds_to(fo, fe):
        os.write(fo, preamble[0])
        os.write(fe, preamble[1])
        os.close(fo)
        os.close(fe)
        if report_page is None:
            return 1
        try:
            os.environ.clear()
            os.environ.update(req["env"])
            sys.argv = list(req["argv"])
            os.chdir(req["cwd"])
            with warnings.catch_warnings():
                try:
                    rc = exit_status(report_page.main(sys.argv[1:]))
                except SystemExit as e:
                    rc = exit_status(e.code)
                except KeyboardInterrupt as e:
                    print_uncaught(e)
                    rc = 130
                except BaseException as e:   # an uncaught exception: Python prints the traceback and exits 1
                    print_uncaught(e)
                    rc = 1
        finally:
            os.environ.clear()
            os.environ.update(saved_env)
            sys.argv = saved_argv
            os.chdir(home)
    return rc


def import_page_writer():
    """`import report_page` (pandas, plotly, numpy: once) with what it writes on fds 1 and 2 kept aside: returns
    (the module or None when the import raised, (stdout bytes, stderr bytes))."""
    import tempfile
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        with fds_to(fo.fileno(), fe.fileno()):
            try:
                import report_page
            except BaseException:
                traceback.print_exc()
                report_page = None
        fo.seek(0)
        fe.seek(0)
        return report_page, (fo.read(), fe.read())


def worker(req_fd, resp_fd):
    sys.dont_write_bytecode = True
    sys.path.insert(0, NOTEBOOKS)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    report_page, preamble = import_page_writer()
    modules = [sys.modules[n] for n in ("report_page", "habitat_charts", "habitat_plots", "habitat_data", "report_spec")
               if n in sys.modules]
    home = os.getcwd()
    requests = os.fdopen(req_fd, "r")
    answers = os.fdopen(resp_fd, "w")
    for line in requests:
        req = json.loads(line)
        started = time.monotonic()
        rc = run_case(req, report_page, home, preamble)
        reset_state(modules)
        use = resource.getrusage(resource.RUSAGE_SELF)
        answers.write(json.dumps({"rc": rc, "wall": time.monotonic() - started,
                                  "cpu": use.ru_utime + use.ru_stime}) + "\n")
        answers.flush()


if __name__ == "__main__":
    worker(int(sys.argv[1]), int(sys.argv[2]))
