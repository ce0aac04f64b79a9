#!/usr/bin/env python3
"""Opens report pages in headless Chromium, networking off, and fails on anything a reader would see broken.

    python3 Notebooks/browser_check.py PAGE.html [PAGE.html ...] [--chromium PATH] [--no-screenshot] [--no-kpis]
                                       [--all-failures] [--max-bytes N]

For each page (a `report.html` beside its run's kpis.csv, or a `comparison.html`):
  1. it is loaded from file:// with the network emulated offline (and a dead proxy behind that); every request that
     is not file:, data:, blob: or about:, and every file: request for another file than the page, is a failure;
  2. console errors and asserts, uncaught exceptions and browser log errors fail (warnings are printed only);
  0. the page's file must be at most --max-bytes (default PAGE_BYTES_BUDGET, 5.5 MB): a hard budget, the size
     being deterministic;
  3. after its load event the page must set document.body.dataset.rendered = "true" (the charts in view are
     drawn); the checker then scrolls each [data-chart] element into view, waiting for each one the page marks
     data-lazy (drawn when scrolled near) to be marked data-drawn, scrolls back to the top, and every [data-chart]
     element must hold a drawn Plotly chart (svg.main-svg, at least one mark, a non-empty box); a page without
     charts fails. Waits have ceilings far above any real page's time (LOAD_SECONDS, RENDER_SECONDS, DRAW_SECONDS):
     running into one is a failure of its own ("timeout: …"), and the load time (navigation to the rendered signal)
     is printed, never held to a limit (a warning above SLOW_LOAD_SECONDS);
  3b. on a page with an arm selector (#arm-select), choosing each arm must show its rows only (tr[data-arm], or
     tr[data-arms] listing several) and leave every chart something visible — or hide it and show its note
     ([data-chart-note=NAME]) saying the arm has nothing there —, and "all arms" must show every row and chart;
  4. the KPI table (#kpi-table, rows tr[data-kpi][data-arm], in each a [data-field][data-value] element per field,
     a <td> or a <span> in one) must hold exactly the pooled rows of kpis.csv (replication "all", else "1"),
     each data-value equal to the CSV text and each display text agreeing with it (to half a unit of its last digit;
     meets_target's text by its verdict: ✓/met, ✗/not met, or none for an empty value); a KPI whose `applies`
     (a column kpis.csv has since it says why a KPI cannot be measured; older files lack it: every KPI applies) is
     not "yes" must show that reason in its meets_target cell ("not measured: needs 45 days; run has 30"). Skipped
     with --no-kpis, for a page named comparison*.html, or when no kpis.csv is beside the page (said in the summary);
  5. loaded again with JavaScript disabled it must still read: an <h1>, three <h2> with text (two on a page
     without a KPI table: a comparison), every table with rows, the whole KPI table;
  6. a full-page screenshot is written beside it (report.html -> report.png) unless --no-screenshot.
Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages ending in NUL, read
on fd 3 and written on fd 4), standard library only. Exit 0 when every page passes, 1 on failures, 2 on bad usage
(a missing page, no Chromium).
"""
import argparse
import base64
import csv
import fcntl
import json
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import report_spec  # noqa: E402  (standard library only, like this checker)

# Ceilings, not measures: each only stops a check that would otherwise wait for ever on a stuck page or browser, and
# is far above what the slowest page takes on a busy machine (a few seconds); none decides whether a page is good.
# Running into one is reported as a timeout, a failure of its own ("timeout: …"), never as the page's fault.
PAGE_SECONDS = 600.0            # everything about one page (both loads, the lazy charts and the screenshot)
LOAD_SECONDS = 120.0            # until the page's load event
RENDER_SECONDS = 60.0           # after the load event, until document.body.dataset.rendered is "true"
DRAW_SECONDS = 120.0            # scrolling to every lazily drawn chart until each is drawn
COMMAND_SECONDS = 60.0          # one DevTools command
# What is measured and held: the page's size is deterministic, so it has a hard budget; its load time (navigation
# to the rendered signal) depends on the machine and is only reported — over SLOW_LOAD_SECONDS, with a warning.
PAGE_BYTES_BUDGET = 5_500_000   # the report pages: plotly.min.js (4,557,888 bytes) + 0.04-0.5 MB of tables and data
SLOW_LOAD_SECONDS = 10.0
SCREENSHOT_MAX_HEIGHT = 16000   # px
MAX_LISTED = 40                 # failures printed per page (unless --all-failures)
CHROMIUM_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"]
INSTALL_HINT = "install it with: apt-get install chromium (make setup-test does)"
ALLOWED_SCHEMES = {"file", "data", "blob", "about"}
KPI_FIELDS = ["mean", "ci_low", "ci_high", "target_min", "target_max", "meets_target"]
NUMERIC_FIELDS = KPI_FIELDS[:-1]
PERCENT_POINT_UNITS = {"pct", "percent", "percentage_points"}   # values already in % (battery drain); not /100
EMPTY_TEXTS = {"—", ""}
# What counts as a drawn chart: Plotly draws cartesian and pie/indicator traces as g.trace (bars, lines, markers,
# boxes, funnels), marks as .point or path.js-line; heatmaps, tables and Sankey diagrams have their own groups.
MARKS = "g.trace, .point, path.js-line, g.hm, g.table, g.sankey"


class CDPError(Exception):
    """A DevTools command failed (the browser answered with an error)."""


class BrowserGone(CDPError):
    """The browser exited, closed its pipe or stopped answering: nothing more can be asked of it."""


class CDP:
    """The DevTools protocol over Chromium's debugging pipe: commands with ids, replies matched to them, events kept
    in order until taken. Every wait ends at the call's timeout or at `deadline` (time.monotonic()), whichever is
    first."""

    def __init__(self, write_fd: int, read_fd: int):
        self.write_fd, self.read_fd = write_fd, read_fd
        self.deadline = float("inf")
        self.events: list[dict] = []
        self._buffer = bytearray()
        self._scanned = 0
        self._next_id = 0

    def send(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float = COMMAND_SECONDS) -> dict:
        """Sends one command and returns its result; events arriving meanwhile are kept in `events`."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        try:
            while data:
                data = data[os.write(self.write_fd, data):]
        except OSError as e:
            raise BrowserGone(f"the browser's pipe is closed ({e.strerror})") from None
        until = min(time.monotonic() + timeout, self.deadline)
        while True:
            reply = self._receive(until)
            if reply is None:
                ran_out = ("no answer before the page's time ran out" if until >= self.deadline
                           else f"no answer within {timeout:g} s")
                raise BrowserGone(f"{method}: {ran_out}")
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise CDPError(f"{method}: {reply['error'].get('message', reply['error'])}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def pump(self, seconds: float):
        """Keeps reading events for `seconds` (or until the deadline): those sent just before a check are seen."""
        until = min(time.monotonic() + seconds, self.deadline)
        while (event := self._receive(until)) is not None:
            self.events.append(event)

    def wait_for_event(self, method: str, session: str, timeout: float) -> dict | None:
        """The first kept or arriving event `method` of `session`, None when none comes within `timeout`."""
        until = min(time.monotonic() + timeout, self.deadline)
        while True:
            for event in self.events:
                if event.get("method") == method and event.get("sessionId") == session:
                    return event
            event = self._receive(until)
            if event is None:
                return None
            self.events.append(event)

    def take_events(self, session: str) -> list[dict]:
        """Removes and returns the kept events of one session."""
        mine = [e for e in self.events if e.get("sessionId") == session]
        self.events = [e for e in self.events if e.get("sessionId") != session]
        return mine

    def _receive(self, until: float) -> dict | None:
        """The next message off the pipe, None when none is complete by `until` (time.monotonic())."""
        while True:
            end = self._buffer.find(b"\0", self._scanned)
            if end >= 0:
                raw = bytes(self._buffer[:end])
                del self._buffer[:end + 1]
                self._scanned = 0
                return json.loads(raw)
            self._scanned = len(self._buffer)
            left = until - time.monotonic()
            if left <= 0 or not select.select([self.read_fd], [], [], left)[0]:
                return None
            chunk = os.read(self.read_fd, 1 << 20)
            if not chunk:
                raise BrowserGone("the browser closed its pipe (it exited or crashed)")
            self._buffer += chunk


def find_chromium(given: str | None) -> str | None:
    """The Chromium to run: --chromium, else $CHROMIUM, else the first of CHROMIUM_NAMES on PATH."""
    for candidate in [given] if given else [os.environ.get("CHROMIUM"), *CHROMIUM_NAMES]:
        if candidate and (shutil.which(candidate) or (os.path.isfile(candidate) and os.access(candidate, os.X_OK))):
            return shutil.which(candidate) or candidate
    return None


class Browser:
    """A headless Chromium with a fresh profile in a temporary folder, killed and removed on close (also when a check
    failed or was interrupted). Use as a context manager."""

    def __init__(self, chromium: str):
        self.chromium = chromium
        self.home = Path(tempfile.mkdtemp(prefix="habitat-browser-check-"))
        self.process: subprocess.Popen | None = None
        self.cdp: CDP | None = None

    def __enter__(self) -> "Browser":
        return self.start()

    def __exit__(self, *_):
        self.close()

    def arguments(self) -> list[str]:
        """Chromium's command line: headless, no network (a dead proxy), nothing running in the background."""
        return [self.chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--remote-debugging-pipe", f"--user-data-dir={self.home / 'profile'}", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--metrics-recording-only", "--disable-breakpad",
                "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
                "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>", "--window-size=1280,900",
                "about:blank"]

    def start(self) -> "Browser":
        """Starts Chromium and waits for it to answer; closes everything again when it does not."""
        try:
            self._launch()
        except BaseException:
            self.close()
            raise
        return self

    def _launch(self):
        """Starts Chromium with the pipe ends on its fds 3 (commands in) and 4 (replies out), then asks its version."""
        commands_read, commands_write = os.pipe()
        replies_read, replies_write = os.pipe()
        # The four new descriptors take the lowest free numbers, so (stdin, stdout and stderr being open) 3 and 4
        # are now in use here and the pipe subprocess opens for its own error reporting cannot land on them: the
        # child overwrites its 3 and 4.

        def child():   # runs in the child before close_fds, which keeps 3 and 4 (pass_fds) and closes the rest
            ours = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (commands_read, replies_write)]
            os.dup2(ours[0], 3)
            os.dup2(ours[1], 4)

        log = open(self.home / "chromium.log", "wb")
        try:
            self.process = subprocess.Popen(self.arguments(), stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                            preexec_fn=child, pass_fds=(3, 4), close_fds=True,
                                            start_new_session=True)
        finally:
            log.close()
            os.close(commands_read)
            os.close(replies_write)
        self.cdp = CDP(commands_write, replies_read)
        try:
            self.cdp.send("Browser.getVersion", timeout=30)
        except BrowserGone as e:
            raise BrowserGone(f"{self.chromium} did not start: {e}\n{self.log_tail()}") from None

    def log_tail(self, lines: int = 8) -> str:
        """The end of Chromium's own output (for a browser that would not start)."""
        try:
            text = (self.home / "chromium.log").read_text(errors="replace").splitlines()
        except OSError:
            return ""
        return "\n".join("  chromium: " + line for line in text[-lines:])

    def close(self):
        """Asks Chromium to quit, kills its process group if it has not within 5 s, removes the profile."""
        if self.process is not None:
            if self.cdp is not None and self.process.poll() is None:
                self.cdp.deadline = float("inf")
                try:
                    self.cdp.send("Browser.close", timeout=3)
                except CDPError:
                    pass
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(self.process.pid, signal.SIGKILL)   # the group we started it in: its renderers too
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            self.process = None
        if self.cdp is not None:
            for fd in (self.cdp.write_fd, self.cdp.read_fd):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self.cdp = None
        shutil.rmtree(self.home, ignore_errors=True)


class Tab:
    """One page in its own browser context (no cache or storage shared with other loads), attached with a flat
    session; the domains the checks listen to are enabled, the network is offline."""

    def __init__(self, browser: Browser, javascript: bool = True):
        self.cdp = browser.cdp
        self.context = self.cdp.send("Target.createBrowserContext", {"disposeOnDetach": True})["browserContextId"]
        target = self.cdp.send("Target.createTarget", {"url": "about:blank", "browserContextId": self.context})
        self.target = target["targetId"]
        self.session = self.cdp.send("Target.attachToTarget", {"targetId": self.target, "flatten": True})["sessionId"]
        self.warnings: list[str] = []
        for domain in ["Page", "Runtime", "Log", "Network"]:
            self.send(f"{domain}.enable")
        try:
            self.send("Network.emulateNetworkConditions",
                      {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        except CDPError as e:
            if isinstance(e, BrowserGone):
                raise
            self.warnings.append(f"offline emulation unavailable ({e}); the dead proxy still blocks the network")
        if not javascript:
            self.send("Emulation.setScriptExecutionDisabled", {"value": True})

    def send(self, method: str, params: dict | None = None, timeout: float = COMMAND_SECONDS) -> dict:
        """A command to this page."""
        return self.cdp.send(method, params, self.session, timeout)

    def evaluate(self, expression: str, timeout: float = COMMAND_SECONDS, await_promise: bool = False):
        """The value of a JavaScript expression in the page (works with the page's own scripts disabled); with
        `await_promise`, the value the promise it returns resolves to."""
        reply = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                               "awaitPromise": await_promise}, timeout)
        if "exceptionDetails" in reply:
            raise CDPError(f"evaluating in the page: {reply['exceptionDetails'].get('text')}")
        return reply["result"].get("value")

    def navigate(self, url: str, timeout: float) -> str | None:
        """Loads `url` and waits for its load event; the reason when it cannot load or does not finish."""
        reply = self.send("Page.navigate", {"url": url})
        if reply.get("errorText"):
            return f"cannot load the page: {reply['errorText']}"
        if self.cdp.wait_for_event("Page.loadEventFired", self.session, timeout) is None:
            return (f"timeout: the page's load event did not fire within {timeout:.0f} s (a ceiling for a stuck "
                    "page, far above a real page's load; the machine may be overloaded)")
        return None

    def close(self):
        """Closes the page and its context (best effort: the browser may be gone)."""
        try:
            self.cdp.send("Target.closeTarget", {"targetId": self.target}, timeout=5)
            self.cdp.send("Target.disposeBrowserContext", {"browserContextId": self.context}, timeout=5)
        except CDPError:
            pass
        self.cdp.take_events(self.session)


@dataclass
class Result:
    """What one page's check found: failures (the page fails), warnings and notes (printed), the facts for the
    summary line, and whether the browser must be restarted before the next page."""
    page: str
    failures: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    charts: int = 0
    kpi_rows: int | None = None
    screenshot: str | None = None
    size: tuple[int, int] | None = None
    load_seconds: float | None = None
    page_bytes: int | None = None
    lazy_charts: int = 0
    arms_selected: int = 0
    browser_broken: bool = False

    @property
    def passed(self) -> bool:
        return not self.failures

    def report(self, listed: int | None = MAX_LISTED) -> str:
        """The lines printed for the page: one summary line when it passed, else its failures (the first `listed`,
        None for all)."""
        if self.passed:
            kpis = (f"{self.kpi_rows} KPI rows match kpis.csv" if self.kpi_rows is not None
                    else "KPI table not checked (" + "; ".join(self.notes) + ")")
            shot = (f"screenshot {self.screenshot} ({self.size[0]}×{self.size[1]})" if self.screenshot
                    else "no screenshot")
            warned = f" ({len(self.warnings)} warnings)" if self.warnings else ""
            arms = f", arm selector tried on {self.arms_selected} arms" if self.arms_selected else ""
            lazy = f" ({self.lazy_charts} drawn when scrolled to)" if self.lazy_charts else ""
            lines = [f"browser-check: {self.page}: {self.charts} charts rendered{lazy}, {kpis}{arms}, no console "
                     f"errors{warned}, no requests, {shot}, {self.page_bytes:,} bytes, load {self.load_seconds:.2f} s"]
        else:
            count = len(self.failures)
            lines = [f"browser-check: {self.page}: FAILED ({count} problem{'s' if count > 1 else ''})"]
            lines += [f"  - {f}" for f in self.failures[:listed]]
            if listed is not None and count > listed:
                lines.append(f"  - … and {count - listed} more (--all-failures lists them)")
            lines += [f"  note: {n}" for n in self.notes]
            if self.screenshot:
                lines.append(f"  screenshot {self.screenshot}")
        return "\n".join(lines + [f"  warning: {w}" for w in self.warnings])


# ---- what the page did: requests and console ----

def describe_remote_object(obj: dict) -> str:
    """A console argument as text."""
    if "value" in obj:
        return obj["value"] if isinstance(obj["value"], str) else json.dumps(obj["value"])
    return obj.get("description") or obj.get("unserializableValue") or obj.get("type", "?")


def where(details: dict) -> str:
    """' (file.html:LINE)' for an event that says where it happened."""
    frames = (details.get("stackTrace") or {}).get("callFrames") or []
    url, line = (frames[0].get("url"), frames[0].get("lineNumber")) if frames else (details.get("url"),
                                                                                    details.get("lineNumber"))
    if not url:
        return ""
    return f" ({Path(unquote(urlsplit(url).path)).name or url}{'' if line is None else f':{line + 1}'})"


def request_problem(url: str, page: Path) -> str | None:
    """Why a request breaks self-containment: a scheme other than file/data/blob/about, or another local file."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "file":
        if Path(unquote(parts.path)) != page:
            return f"loads another local file: {url} (the page must be self-contained)"
        return None
    if scheme in ALLOWED_SCHEMES:
        return None
    return f"requests {url} (the page must be self-contained; the network is off)"


def page_events(events: list[dict], page: Path) -> tuple[list[str], list[str]]:
    """Failures and warnings from a load's events: requests leaving the page, console errors, exceptions, log
    errors."""
    failures, warnings = [], []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Network.requestWillBeSent":
            problem = request_problem(params["request"]["url"], page)
        elif method == "Network.webSocketCreated":
            problem = f"opens a WebSocket to {params['url']}"
        elif method == "Runtime.consoleAPICalled":
            text = " ".join(describe_remote_object(a) for a in params.get("args", [])) + where(params)
            if params["type"] in ("error", "assert"):
                failures.append(f"console {params['type']}: {text}")
            elif params["type"] == "warning":
                warnings.append(f"console warning: {text}")
            continue
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            text = (details.get("exception") or {}).get("description") or details.get("text", "")
            failures.append(f"uncaught exception: {text.splitlines()[0] if text else '?'}{where(details)}")
            continue
        elif method == "Log.entryAdded":
            entry = params["entry"]
            line = f"browser log {entry['level']}: {entry.get('text', '')}" + (
                f" ({entry['url']})" if entry.get("url") else "")
            if entry["level"] == "error":
                failures.append(line)
            elif entry["level"] == "warning":
                warnings.append(line)
            continue
        else:
            continue
        if problem:
            failures.append(problem)
    return list(dict.fromkeys(failures)), list(dict.fromkeys(warnings))


# ---- the charts ----

CHARTS_JS = """JSON.stringify([...document.querySelectorAll("[data-chart]")].map(e => {
  const box = e.getBoundingClientRect();
  return {name: e.dataset.chart || e.id || "(unnamed)", svg: e.querySelectorAll("svg.main-svg").length,
          marks: e.querySelectorAll(%s).length, width: box.width, height: box.height};
}))""" % json.dumps(MARKS)


def check_charts(tab: Tab) -> tuple[int, list[str]]:
    """How many [data-chart] elements hold a drawn chart, and a failure for each that does not (or for none)."""
    charts = json.loads(tab.evaluate(CHARTS_JS))
    if not charts:
        return 0, ["no charts: the page has no [data-chart] element"]
    failures = []
    for chart in charts:
        missing = [what for what, bad in [("no svg.main-svg", not chart["svg"]),
                                          (f"no trace drawn ({MARKS})", not chart["marks"]),
                                          (f"an empty box ({chart['width']:.0f}×{chart['height']:.0f} px)",
                                           chart["width"] <= 0 or chart["height"] <= 0)] if bad]
        if missing:
            failures.append(f"chart \"{chart['name']}\" rendered nothing: {', '.join(missing)}")
    return len(charts) - len(failures), failures


ARM_SELECTOR_JS = """(() => {
  const select = document.getElementById("arm-select");
  if (!select) return JSON.stringify(null);
  const rows = () => [...document.querySelectorAll("tr[data-arm], tr[data-arms]")];
  const armsOf = r => r.dataset.arms ? r.dataset.arms.split(" ") : [r.dataset.arm];
  const shown = r => r.style.display !== "none";
  const drawsSomething = d => d.data && d.data.some(t => t.visible !== false);
  const hidden = d => d.hidden || getComputedStyle(d).display === "none";
  const noted = d => {
    const note = document.querySelector(`[data-chart-note="${d.dataset.chart}"]`);
    return !!note && !note.hidden && getComputedStyle(note).display !== "none" && note.textContent.trim() !== "";
  };
  const result = [];
  for (const arm of [...select.options].map(o => o.value).filter(v => v)) {
    select.value = arm;
    select.dispatchEvent(new Event("change"));
    const charts = [...document.querySelectorAll("[data-chart]")].filter(d => d.data);
    result.push({arm: arm,
      wrong: rows().filter(r => shown(r) !== armsOf(r).includes(arm)).length,
      blank: charts.filter(d => !drawsSomething(d) && !(hidden(d) && noted(d))).map(d => d.dataset.chart),
      hidden: charts.filter(d => drawsSomething(d) && hidden(d)).map(d => d.dataset.chart)});
  }
  select.value = "";
  select.dispatchEvent(new Event("change"));
  const charts = [...document.querySelectorAll("[data-chart]")].filter(d => d.data);
  result.push({arm: "", wrong: rows().filter(r => !shown(r)).length,
               blank: charts.filter(d => !drawsSomething(d) || hidden(d)).map(d => d.dataset.chart), hidden: []});
  return JSON.stringify(result);
})()"""


def check_arm_selector(tab: Tab) -> tuple[int, list[str]]:
    """Chooses every arm of the page's arm selector (if any) and back to all arms: the rows of other arms must
    hide, the arm's own show, and no chart may be left with nothing visible — unless the page hides it and shows its
    note instead ([data-chart-note=NAME], with text: the arm has nothing in that chart) —, nor be hidden while it has
    something to show; with all arms every chart shows. Returns (arms tried, failures)."""
    outcome = json.loads(tab.evaluate(ARM_SELECTOR_JS))
    if outcome is None:
        return 0, []
    failures = []
    for step in outcome:
        arm = step["arm"] or "all arms"
        if step["wrong"]:
            n = step["wrong"]
            failures.append(f"arm selector on {arm}: {n} table row{'s' if n != 1 else ''} shown or hidden wrongly")
        if step["blank"] and step["arm"]:
            failures.append(f"arm selector on {arm}: nothing left visible in chart(s) {', '.join(step['blank'])} "
                            f"and no note shown in its place")
        elif step["blank"]:
            failures.append(f"arm selector back on all arms: chart(s) {', '.join(step['blank'])} not shown")
        if step.get("hidden"):
            failures.append(f"arm selector on {arm}: chart(s) {', '.join(step['hidden'])} hidden though they have "
                            f"something of the arm to show")
    return len(outcome) - 1, failures


LAZY_JS = """(async () => {
  const frame = () => new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)));
  // A chart the page hides (the arm selector's choice has nothing in it) cannot be scrolled to: it is left alone.
  const shown = chart => !chart.hidden && getComputedStyle(chart).display !== "none";
  const lazy = [...document.querySelectorAll("[data-chart]")].filter(c => c.dataset.lazy === "true" && shown(c));
  for (const chart of lazy) {
    if (chart.dataset.lazy === "true" && shown(chart)) chart.scrollIntoView({block: "center"});
    else continue;
    while (chart.dataset.lazy === "true" && chart.dataset.drawn !== "true" && shown(chart)) await frame();
  }
  window.scrollTo(0, 0);
  await frame();
  return lazy.length;
})()"""


def draw_lazy_charts(tab: Tab, timeout: float) -> tuple[int, list[str]]:
    """Scrolls each chart the page draws lazily (data-lazy="true") and shows into view and waits until the page
    marks it drawn (data-drawn="true"), then back to the top. Returns (charts drawn so, failures): only a timeout — a chart
    that never draws is then found undrawn by check_charts."""
    try:
        return int(tab.evaluate(LAZY_JS, timeout=timeout, await_promise=True) or 0), []
    except BrowserGone as e:
        if "no answer" not in str(e):
            raise
        waiting = json.loads(tab.evaluate('JSON.stringify([...document.querySelectorAll("[data-chart]")]'
                                          '.filter(e => e.dataset.lazy === "true").map(e => e.dataset.chart))'))
        return 0, [f"timeout: chart(s) {', '.join(waiting) or '?'} scrolled into view were not drawn within "
                   f"{timeout:.0f} s (a ceiling, far above a real chart's drawing)"]


def wait_rendered(tab: Tab, timeout: float) -> bool:
    """Whether document.body.dataset.rendered becomes "true" within `timeout` (polled every 50 ms)."""
    until = time.monotonic() + timeout
    while True:
        # A page busy in a long script answers late: wait for it as long as the page's time allows.
        if tab.evaluate('!!document.body && document.body.dataset.rendered === "true"',
                        timeout=max(until - time.monotonic(), 0) + COMMAND_SECONDS):
            return True
        if time.monotonic() >= until:
            return False
        time.sleep(0.05)


# ---- the KPI table against kpis.csv ----

KPI_TABLE_JS = """JSON.stringify((() => {
  const table = document.getElementById("kpi-table");
  if (!table) return null;
  return [...table.querySelectorAll("tr[data-kpi]")].map(tr => ({
    kpi: tr.dataset.kpi, arm: tr.dataset.arm ?? null,
    cells: Object.fromEntries([...tr.querySelectorAll("[data-field]")].map(e =>
      [e.dataset.field, {value: e.getAttribute("data-value"), text: e.textContent.trim()}]))}));
})())"""


def pooled_kpis(path: Path) -> tuple[dict[tuple[str, str], dict], list[str]]:
    """kpis.csv's pooled rows by (kpi, arm) — replication "all" when there are any, else "1" — and the problems
    with the file itself (missing columns, a (kpi, arm) twice)."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
        columns = reader.fieldnames or []
    missing = [c for c in ["arm", "replication", "kpi", "unit", *KPI_FIELDS] if c not in columns]
    if missing:
        return {}, [f"{path.name} lacks the columns {', '.join(missing)}"]
    wanted = "all" if any(r["replication"] == "all" for r in rows) else "1"
    pooled, problems = {}, []
    for row in rows:
        if row["replication"] == wanted:
            key = (row["kpi"], row["arm"])
            if key in pooled:
                problems.append(f"{path.name} has two pooled rows for kpi {key[0]} arm {key[1]}")
            pooled[key] = row
    return pooled, problems


NUMBER = re.compile(r"(?P<sign>[-+−])?\s*(?:US)?\$?\s*(?P<int>\d{1,3}(?:[,\u2009\u202f]\d{3})+|\d+)"
                    r"(?:\.(?P<frac>\d+))?"
                    r"(?:[eE](?P<exp>[-+]?\d+))?(?P<suffix>[kMB](?![A-Za-z]))?(?P<percent>\s*%)?")
SUFFIX = {"k": 1e3, "M": 1e6, "B": 1e9}
NOT_MEASURED = re.compile(r"\bnot measured\b", re.IGNORECASE)   # what follows is the reason, not a verdict
NOT_MET = re.compile(r"[✗✘]|\bnot met\b|\bmissed\b|\bfalse\b|\bfail", re.IGNORECASE)
MET = re.compile(r"[✓✔]|\bmet\b|\btrue\b|\byes\b|\bpass", re.IGNORECASE)


def displayed_number(text: str, unit: str) -> tuple[float, float] | None:
    """The number a display text shows, in the CSV's terms, and half a unit of its last digit: '12.3 %' is 0.123
    ± 0.0005 for a fraction (a % of a unit in PERCENT_POINT_UNITS stays 12.3 ± 0.05), '$1,234.56' 1234.56 ± 0.005,
    '4.2 min' 4.2 ± 0.05, '1.2k' 1200 ± 50. None when the text holds no number."""
    m = NUMBER.search(text.replace("\u00a0", " "))
    if not m:
        return None
    digits = re.sub(r"[,\u2009\u202f]", "", m["int"]) + ("." + m["frac"] if m["frac"] else "")
    scale = (10.0 ** int(m["exp"]) if m["exp"] else 1.0) * SUFFIX.get(m["suffix"] or "", 1.0)
    if m["percent"] and unit not in PERCENT_POINT_UNITS:
        scale /= 100
    value = float(digits) * scale * (-1 if m["sign"] in ("-", "−") else 1)
    half_unit = 0.5 * 10.0 ** -len(m["frac"] or "") * scale
    return value, half_unit


def verdict(text: str) -> str | None:
    """What a meets_target text says: "false" ('✗ not met', 'missed'), "true" ('✓ met', 'yes'), or None for a text
    without a verdict ('no target', 'not measured', '—')."""
    if NOT_MET.search(text):
        return "false"
    return "true" if MET.search(text) else None


def display_disagrees(text: str, raw: str, unit: str, name: str) -> str | None:
    """Why a cell's display text does not show its CSV value (None when it does)."""
    if name == "meets_target":
        said = verdict(NOT_MEASURED.split(text, 1)[0])   # "not measured: no paywall passed" states no verdict
        if raw == "":
            return None if said is None else f"says {said} for an empty value"
        return None if said == raw else (f"says {said}" if said else "shows no verdict (✓ met / ✗ not met)")
    if raw == "":
        return None if text in EMPTY_TEXTS else "shows something for an empty value"
    try:
        value = float(raw)
    except ValueError:
        return "the CSV value is not a number"
    shown = displayed_number(text, unit)
    if shown is None:
        return "shows no number"
    number, half_unit = shown
    if abs(number - value) > half_unit * (1 + 1e-6) + 1e-12:
        return f"shows {number:g} (± {half_unit:g})"
    return None


def compare_kpis(table: list[dict] | None, pooled: dict[tuple[str, str], dict]) -> list[str]:
    """Every difference between the page's KPI table and kpis.csv's pooled rows: rows missing or extra, data-value
    not the CSV text, display text not showing the value."""
    if table is None:
        return ['no KPI table (<table id="kpi-table">) although kpis.csv is beside the page']
    failures, seen = [], set()
    for row in table:
        key = (row["kpi"], row["arm"])
        if key in seen:
            failures.append(f"kpi {key[0]} arm {key[1]} is in the KPI table twice")
            continue
        seen.add(key)
        csv_row = pooled.get(key)
        if csv_row is None:
            failures.append(f"kpi {key[0]} arm {key[1]} is in the KPI table but not in kpis.csv (pooled rows)")
            continue
        for name in KPI_FIELDS:
            cell = row["cells"].get(name)
            expected = csv_row[name] or ""
            what = f"kpi {key[0]} arm {key[1]} {name}"
            if cell is None:
                failures.append(f"{what}: no [data-field=\"{name}\"] cell in the row (kpis.csv: {expected!r})")
                continue
            value, text = cell["value"] or "", cell["text"]
            if value != expected:
                failures.append(f"{what}: data-value {value!r}, kpis.csv {expected!r} (page text {text!r})")
            reason = display_disagrees(text, expected, csv_row["unit"], name)
            if reason:
                failures.append(f"{what}: page text {text!r} {reason}, kpis.csv {expected!r} ({csv_row['unit']})")
        applies = (csv_row.get("applies") or "yes").strip()   # a kpis.csv without the column: every KPI applies
        cell = row["cells"].get("meets_target")
        if applies != "yes" and cell is not None and applies not in cell["text"]:
            failures.append(f"kpi {key[0]} arm {key[1]}: kpis.csv says it cannot be measured ({applies!r}) but the "
                            f"page text {cell['text']!r} does not say why")
    for key in pooled:
        if key not in seen:
            failures.append(f"kpi {key[0]} arm {key[1]} of kpis.csv is missing from the KPI table")
    return failures


def kpis_expected(page: Path, no_kpis: bool) -> tuple[Path | None, str | None]:
    """kpis.csv (the report specification's name for it) to compare the page with, or None and why not."""
    if no_kpis:
        return None, "--no-kpis"
    if page.name.startswith("comparison"):
        return None, "a comparison page"
    kpis = page.parent / report_spec.file_name("kpis")
    if not kpis.is_file():
        return None, f"no {kpis.name} beside the page"
    return kpis, None


# ---- without JavaScript ----

STATIC_JS = """JSON.stringify({h1: [...document.querySelectorAll("h1")].map(h => h.textContent.trim()).filter(t => t),
  h2: [...document.querySelectorAll("h2")].map(h => h.textContent.trim()).filter(t => t),
  tables: [...document.querySelectorAll("table")].map(t => [t.id, t.querySelectorAll("tbody tr, tr").length]),
  kpis: document.getElementById("kpi-table") &&
        [...document.querySelectorAll("#kpi-table tr[data-kpi]")].map(tr => [tr.dataset.kpi, tr.dataset.arm ?? null])
})"""


def check_static(tab: Tab, pooled: dict[tuple[str, str], dict] | None) -> list[str]:
    """Failures of the page read without JavaScript: no <h1>, too few <h2> (3 for a run's page, 2 for a
    comparison's), an empty data table, KPI rows missing."""
    page = json.loads(tab.evaluate(STATIC_JS))
    failures = []
    if not page["h1"]:
        failures.append("with JavaScript off the page has no <h1> with text")
    least = 3 if pooled is not None else 2
    if len(page["h2"]) < least:
        failures.append(f"with JavaScript off the page has {len(page['h2'])} <h2> section headings with text "
                        f"(at least {least} expected)")
    for table_id, rows in page["tables"]:
        if rows == 0:
            failures.append(f"with JavaScript off the table {table_id or '(no id)'} has no rows")
    if pooled is not None:
        if page["kpis"] is None:
            failures.append("with JavaScript off there is no KPI table (<table id=\"kpi-table\">)")
        else:
            missing = [key for key in pooled if list(key) not in page["kpis"]]
            if missing:
                examples = ", ".join(f"{kpi}/{arm}" for kpi, arm in missing[:3])
                failures.append(f"with JavaScript off the KPI table lacks {len(missing)} of {len(pooled)} rows "
                                f"(e.g. {examples})")
    return failures


# ---- the screenshot ----

def screenshot(tab: Tab, path: Path) -> tuple[int, int]:
    """Writes a PNG of the whole page (height capped at SCREENSHOT_MAX_HEIGHT) and returns its size in pixels."""
    size = tab.send("Page.getLayoutMetrics")["cssContentSize"]
    clip = {"x": 0, "y": 0, "width": max(1, round(size["width"])),
            "height": max(1, min(round(size["height"]), SCREENSHOT_MAX_HEIGHT)), "scale": 1}
    data = base64.b64decode(tab.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                                "clip": clip}, timeout=30)["data"])
    path.write_bytes(data)
    report_spec.set_report_mode(path)   # the mode of the CSVs beside it
    width, height = struct.unpack(">II", data[16:24])
    return width, height


# ---- one page ----

def check_page(browser: Browser, page: Path, shown_as: str | None = None, no_kpis: bool = False,
               take_screenshot: bool = True, render_seconds: float = RENDER_SECONDS,
               page_seconds: float = PAGE_SECONDS, load_seconds: float = LOAD_SECONDS,
               draw_seconds: float = DRAW_SECONDS, max_bytes: int = PAGE_BYTES_BUDGET) -> Result:
    """Every check on one page (see the module's doc); BrowserGone and timeouts become failures. The ceilings
    (`load_seconds` for each load event, `render_seconds` after it for the rendered signal, `draw_seconds` for the
    lazily drawn charts, `page_seconds` for everything) only end waits for what never comes."""
    page = page.resolve()
    result = Result(shown_as or str(page))
    result.page_bytes = page.stat().st_size
    if result.page_bytes > max_bytes:
        result.failures.append(f"the page is {result.page_bytes:,} bytes, over its budget of {max_bytes:,} bytes "
                               "(--max-bytes): the charting library is inlined once, minified, with the data")
    cdp = browser.cdp
    cdp.deadline = time.monotonic() + page_seconds
    csv_path, why_not = kpis_expected(page, no_kpis)
    pooled = None
    if why_not:
        result.notes.append(why_not)
    else:
        try:
            pooled, problems = pooled_kpis(csv_path)
        except (OSError, UnicodeDecodeError, csv.Error) as e:
            pooled, problems = {}, [f"cannot read {csv_path}: {e}"]
        result.failures += problems
        if problems and not pooled:
            pooled = None   # nothing to compare with (said above)
    try:
        check_live(browser, page, result, pooled, take_screenshot, render_seconds, load_seconds, draw_seconds)
        tab = Tab(browser, javascript=False)
        try:
            problem = tab.navigate(page.as_uri(), max(0.0, min(load_seconds, cdp.deadline - time.monotonic())))
            result.failures += [f"with JavaScript off: {problem}"] if problem else check_static(tab, pooled)
        finally:
            tab.close()
    except BrowserGone as e:
        result.failures.append(f"browser: {e}")
        result.browser_broken = True
    except CDPError as e:
        result.failures.append(f"browser: {e}")
    finally:
        cdp.deadline = float("inf")
    return result


def check_live(browser: Browser, page: Path, result: Result, pooled: dict | None, take_screenshot: bool,
               render_seconds: float, load_seconds: float = LOAD_SECONDS, draw_seconds: float = DRAW_SECONDS):
    """The load with JavaScript: requests, console, rendering, the lazily drawn charts, charts, the KPI table, the
    screenshot. Each wait starts when the one before it ended, so a slow load leaves the rendered signal all its
    ceiling: a page that never signals fails with that, however long its load took."""
    tab = Tab(browser)
    result.warnings += tab.warnings
    cdp = browser.cdp
    try:
        started = time.monotonic()
        problem = tab.navigate(page.as_uri(), max(0.0, min(load_seconds, cdp.deadline - started)))
        if problem:
            result.failures.append(problem)
        elif not wait_rendered(tab, wait := max(0.0, min(render_seconds, cdp.deadline - time.monotonic()))):
            result.failures.append(f'document.body.dataset.rendered never became "true" (waited {wait:.0f} s after '
                                   "the load event): a script failed or the page does not signal that its charts "
                                   "are drawn")
        else:
            result.load_seconds = time.monotonic() - started
            if result.load_seconds > SLOW_LOAD_SECONDS:
                result.warnings.append(f"slow load: {result.load_seconds:.1f} s to the rendered signal (over "
                                       f"{SLOW_LOAD_SECONDS:g} s; reported only, never a failure: a busy machine "
                                       "is slow)")
            cdp.pump(0.2)   # a late error or request
            result.lazy_charts, failures = draw_lazy_charts(
                tab, max(0.0, min(draw_seconds, cdp.deadline - time.monotonic())))
            result.failures += failures
            result.charts, failures = check_charts(tab)
            result.failures += failures
            result.arms_selected, failures = check_arm_selector(tab)
            result.failures += failures
            if pooled is not None:
                failures = compare_kpis(json.loads(tab.evaluate(KPI_TABLE_JS)), pooled)
                result.failures += failures
                if not failures:
                    result.kpi_rows = len(pooled)
        if take_screenshot and not problem:
            png = page.with_suffix(".png")
            result.size = screenshot(tab, png)
            result.screenshot = str(Path(result.page).with_suffix(".png"))
    finally:
        failures, warnings = page_events(browser.cdp.take_events(tab.session), page)
        result.failures[:0] = failures
        result.warnings += warnings
        tab.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], usage=__doc__.splitlines()[2].strip())
    parser.add_argument("pages", nargs="+", metavar="PAGE.html", help="report.html or comparison.html pages")
    parser.add_argument("--chromium", help="the Chromium or Chrome to run (default: $CHROMIUM, else chromium on PATH)")
    parser.add_argument("--no-screenshot", action="store_true", help="do not write PAGE.png beside each page")
    parser.add_argument("--no-kpis", action="store_true", help="do not compare a KPI table with kpis.csv")
    parser.add_argument("--all-failures", action="store_true", help=f"list every failure (default: the first "
                        f"{MAX_LISTED} of a page)")
    parser.add_argument("--max-bytes", type=int, default=PAGE_BYTES_BUDGET, metavar="N",
                        help=f"a page's size budget in bytes (default {PAGE_BYTES_BUDGET:,})")
    args = parser.parse_args(argv)
    missing = [p for p in args.pages if not Path(p).is_file()]
    if missing:
        print(f"browser-check: no such page: {', '.join(missing)}", file=sys.stderr)
        return 2
    chromium = find_chromium(args.chromium)
    if not chromium:
        print(f"browser-check: Chromium not found ({args.chromium or 'chromium'}): {INSTALL_HINT}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))   # so a killed check still closes its browser
    failed = 0
    browser = None
    try:
        for page in args.pages:
            if browser is None:
                try:
                    browser = Browser(chromium).start()
                except (CDPError, OSError) as e:
                    print(f"browser-check: cannot start Chromium: {e}", file=sys.stderr)
                    return 2
            result = check_page(browser, Path(page), page, no_kpis=args.no_kpis, take_screenshot=not args.no_screenshot,
                                max_bytes=args.max_bytes)
            print(result.report(None if args.all_failures else MAX_LISTED), flush=True)
            failed += not result.passed
            if result.browser_broken:
                browser.close()
                browser = None
    finally:
        if browser is not None:
            browser.close()
    if failed:
        print(f"browser-check: {failed} of {len(args.pages)} pages failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
