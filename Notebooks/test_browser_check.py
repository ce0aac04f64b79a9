#!/usr/bin/env python3
"""Checks browser_check.py against small synthetic pages in a real headless Chromium: a good page passes (and gets
its screenshot), and each way a page can be broken — a console error, an exception, a request to the network or to
another local file, a chart never drawn (at once, or when scrolled to), no rendered signal, a page over its size
budget, a load event that never comes (a timeout, reported as one), a KPI row missing, extra or shown wrong, a KPI table
only JavaScript builds, a KPI the run cannot measure shown without kpis.csv's reason (`applies`), a chart the arm selector
empties without the note that stands in for it, or hides though it has the arm's data — fails with its own message; a kpis.csv with the `applies` column passes like one without. Also the display-text parser and the
command line's exit codes.

    python3 Notebooks/test_browser_check.py
"""
import html
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import browser_check as bc  # noqa: E402

KPIS_CSV = """\
scenario,arm,replication,product,kpi,unit,mean,ci_low,ci_high,replications,target_min,target_max,meets_target
t,control,1,scroll-off,d1_retention,fraction,0.700000,,,1,0.5500,,true
t,control,2,scroll-off,d1_retention,fraction,0.726667,,,1,0.5500,,true
t,control,all,scroll-off,d1_retention,fraction,0.713333,0.650120,0.776546,2,0.5500,,true
t,control,all,scroll-off,net_revenue_usd,usd,1234.560000,1100.004000,1369.115000,2,,,
t,control,all,scroll-off,median_time_saved_per_day,minutes,42.150000,38.000000,46.300000,2,45.0000,,false
t,control,all,scroll-off,battery_idle_pct_per_hour_p90,pct,1.234000,,,2,,2.0000,true
t,control,all,scroll-off,shields_per_day,count_per_day,24.373033,,,2,8.0000,15.0000,false
t,price,all,scroll-off,d1_retention,fraction,0.650000,0.600000,0.700000,2,0.5500,,true
"""
POOLED = [r for r in bc.csv.DictReader(KPIS_CSV.splitlines()) if r["replication"] == "all"]
# kpis.csv as runs write it since the `applies` column: a KPI the run cannot measure is empty and says why.
REASON = "needs 45 days; run has 30"
KPIS_APPLIES_CSV = "".join(
    line + ("," + ("applies" if n == 0 else REASON if "d30_retention_paid" in line else "yes")) + "\n"
    for n, line in enumerate((KPIS_CSV + "t,control,all,scroll-off,d30_retention_paid,fraction,,,,0,0.3000,,\n"
                              "t,price,all,scroll-off,d30_retention_paid,fraction,,,,0,0.3000,,\n").splitlines()))
POOLED_APPLIES = [r for r in bc.csv.DictReader(KPIS_APPLIES_CSV.splitlines()) if r["replication"] == "all"]
FORMATS = {"fraction": lambda v: f"{v * 100:.1f} %", "usd": lambda v: f"${v:,.2f}", "minutes": lambda v: f"{v:.1f} min",
           "pct": lambda v: f"{v:.2f} %/h", "count_per_day": lambda v: f"{v:.1f}/day"}
CHARTS = {"retention": [{"type": "scatter", "mode": "lines", "x": [0, 1, 7, 30], "y": [1, 0.71, 0.5, 0.3]}],
          "revenue": [{"type": "bar", "x": ["control", "price"], "y": [1234.56, 1500]}]}


def display(row: dict, name: str) -> str:
    """The cell text a person reads, formatted the way report_page.py is specified to."""
    raw = row[name]
    if name == "meets_target":
        if not raw and not row["mean"]:
            applies = row.get("applies") or "yes"
            return "not measured" + (f": {applies}" if applies != "yes" else "")
        return {"true": "✓ met", "false": "✗ not met"}.get(raw, "no target")
    return FORMATS[row["unit"]](float(raw)) if raw else "—"


def table_rows(rows: list[dict], texts: dict | None = None) -> str:
    """<tr data-kpi data-arm> rows of the KPI table; `texts` replaces display texts: {(kpi, arm, field): text}."""
    texts = texts or {}
    out = []
    for row in rows:
        def cell(name: str, tag: str = "td") -> str:
            text = texts.get((row["kpi"], row["arm"], name), display(row, name))
            return f'<{tag} data-field="{name}" data-value="{html.escape(row[name])}">{html.escape(text)}</{tag}>'
        # The interval as report_page.py writes it: two <span>s in one cell.
        cells = (cell("mean") + f'<td>{cell("ci_low", "span")} to {cell("ci_high", "span")}</td>'
                 + "".join(cell(name) for name in ["target_min", "target_max", "meets_target"]))
        out.append(f'<tr data-kpi="{row["kpi"]}" data-arm="{row["arm"]}"><td>{row["kpi"]}</td><td>{row["arm"]}</td>'
                   f"{cells}</tr>")
    return "\n".join(out)


LAZY_SCRIPT = """<script>
  var observer = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      if (!e.isIntersecting) return;
      observer.unobserve(e.target);
      Plotly.newPlot(e.target, [{type: "bar", x: [1, 2], y: [3, 4]}], {height: 300}).then(function () {
        e.target.dataset.drawn = "true"; delete e.target.dataset.lazy; });
    });
  });
  document.querySelectorAll('[data-lazy="true"]').forEach(function (d) { observer.observe(d); });
</script>"""


def page_html(plotly_js: str, rows: list[dict] | None = None, texts: dict | None = None, charts: dict = CHARTS,
              undrawn: tuple = (), head: str = "", body: str = "", rendered: bool = True,
              table_by_js: bool = False, lazy: tuple = (), lazy_drawn: bool = True) -> str:
    """A report page after the contract: charts drawn by Plotly, the rendered signal, the KPI table, h1 and h2s;
    `lazy` charts are far below the window, marked data-lazy and drawn only when scrolled near (`lazy_drawn`:
    else never)."""
    rows = POOLED if rows is None else rows
    divs = "".join(f'<div class="chart" data-chart="{n}" id="chart-{n}"></div>' for n in [*charts, *undrawn])
    if lazy:
        divs += '<div style="height:4000px"></div>' + "".join(
            f'<div class="chart" data-chart="{n}" id="chart-{n}" data-lazy="true" style="min-height:300px"></div>'
            for n in lazy) + (LAZY_SCRIPT if lazy_drawn else "")
    plots = ", ".join(f'Plotly.newPlot("chart-{n}", {json.dumps(t)}, {{height: 300}})' for n, t in charts.items())
    body_rows = table_rows(rows, texts)
    fill = f"document.getElementById('kpi-body').innerHTML = {json.dumps(body_rows)};" if table_by_js else ""
    signal = 'document.body.dataset.rendered = "true";' if rendered else ""
    return f"""<!doctype html>
<html><head><meta charset="utf-8"><title>t</title><script>{plotly_js}</script>{head}</head>
<body><h1>Run t</h1>
<h2>Key figures</h2>
<table id="kpi-table"><thead><tr><th>KPI</th><th>arm</th><th>mean</th><th>95 % CI</th>
<th>target min</th><th>target max</th><th>meets</th></tr></thead>
<tbody id="kpi-body">{"" if table_by_js else body_rows}</tbody></table>
<h2>Retention</h2><h2>Revenue</h2>{divs}
{body}
<script>{fill} Promise.all([{plots}]).then(() => {{ {signal} }});</script>
</body></html>"""


class Pages:
    """Writes each case's page, with kpis.csv beside it, into its own folder of a temporary directory."""

    def __init__(self, root: Path):
        self.root = root
        self.plotly_js = plotly_bundle()

    def write(self, case: str, name: str = "report.html", kpis: bool = True, kpis_csv: str = KPIS_CSV,
              **page) -> Path:
        folder = self.root / case
        folder.mkdir()
        if kpis:
            (folder / "kpis.csv").write_text(kpis_csv)
        path = folder / name
        path.write_text(page_html(self.plotly_js, **page))
        return path


def plotly_bundle() -> str:
    """The real plotly.js (the one plotly.py ships), to be inlined like report_page.py does."""
    import plotly.offline
    return plotly.offline.get_plotlyjs()


def check_display_parser():
    """Display texts in report_page.py's formats read back as their values, to half a unit of the last digit."""
    cases = [("12.3 %", "fraction", 0.123, 0.0005), ("$1,234.56", "usd", 1234.56, 0.005),
             ("4.2 min", "minutes", 4.2, 0.05), ("0.87", "fraction", 0.87, 0.005), ("1.2 %/h", "pct", 1.2, 0.05),
             ("−$3.50", "usd", -3.5, 0.005), ("-$3.50", "usd", -3.5, 0.005),
             ("12.3\u00a0%", "fraction", 0.123, 0.0005),
             ("1.2k", "count", 1200, 50), ("24.4/day", "count_per_day", 24.4, 0.05), ("1,234", "count", 1234, 0.5)]
    for text, unit, value, half in cases:
        got = bc.displayed_number(text, unit)
        assert got and abs(got[0] - value) < 1e-9 and abs(got[1] - half) < 1e-12, (text, got)
    assert bc.displayed_number("—", "fraction") is None
    assert bc.display_disagrees("71.3 %", "0.713333", "fraction", "mean") is None
    assert bc.display_disagrees("71.4 %", "0.713333", "fraction", "mean") == "shows 0.714 (± 0.0005)"
    assert bc.display_disagrees("0.71 %", "0.713333", "fraction", "mean"), "a fraction shown as % is ×100"
    assert bc.display_disagrees("—", "", "usd", "ci_low") is None
    assert bc.display_disagrees("—", "1.0", "usd", "ci_low") == "shows no number"
    assert bc.display_disagrees("$0.00", "", "usd", "ci_low") == "shows something for an empty value"
    for text, raw, reason in [("✓ met", "true", None), ("✗ not met", "false", None), ("no target", "", None),
                              ("not measured", "", None), ("—", "", None), ("✗ not met", "true", "says false"),
                              ("✓ met", "false", "says true"), ("yes", "", "says true for an empty value"),
                              ("no target", "true", "shows no verdict (✓ met / ✗ not met)")]:
        assert bc.display_disagrees(text, raw, "fraction", "meets_target") == reason, (text, raw)


def check_kpi_comparison():
    """compare_kpis and pooled_kpis without a browser: data-value must be the CSV text; pooled rows are the
    replication "all" rows, or replication "1" when a run has no "all" rows."""
    pooled = {(r["kpi"], r["arm"]): r for r in POOLED}
    table = [{"kpi": r["kpi"], "arm": r["arm"],
              "cells": {n: {"value": r[n], "text": display(r, n)} for n in bc.KPI_FIELDS}} for r in POOLED]
    assert bc.compare_kpis(table, pooled) == []
    table[0]["cells"]["mean"]["value"] = "0.713"
    del table[1]["cells"]["ci_high"]
    failures = bc.compare_kpis(table + [table[2]], pooled)
    assert failures == [
        "kpi d1_retention arm control mean: data-value '0.713', kpis.csv '0.713333' (page text '71.3 %')",
        "kpi net_revenue_usd arm control ci_high: no [data-field=\"ci_high\"] cell in the row (kpis.csv: "
        "'1369.115000')",
        "kpi median_time_saved_per_day arm control is in the KPI table twice"], failures
    assert bc.compare_kpis(None, pooled) == [
        'no KPI table (<table id="kpi-table">) although kpis.csv is beside the page']
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "kpis.csv"
        path.write_text("\n".join(line for line in KPIS_CSV.splitlines() if ",all," not in line) + "\n")
        rows, problems = bc.pooled_kpis(path)
        assert problems == [] and list(rows) == [("d1_retention", "control")], (rows, problems)
        assert rows[("d1_retention", "control")]["mean"] == "0.700000", rows
    check_applies_comparison()


def check_applies_comparison():
    """kpis.csv with `applies`: the extra column is read but is no field of the table; a KPI the run cannot
    measure must say why ("not measured: REASON"), and the reason's words are never read as a verdict. Without the
    column (KPIS_CSV above), every KPI applies and a plain "not measured" is right."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "kpis.csv"
        path.write_text(KPIS_APPLIES_CSV)
        pooled, problems = bc.pooled_kpis(path)
    assert problems == [] and len(pooled) == len(POOLED_APPLIES) == 8, (pooled, problems)
    assert pooled[("d30_retention_paid", "price")]["applies"] == REASON

    def table(texts: dict | None = None) -> list[dict]:
        texts = texts or {}
        return [{"kpi": r["kpi"], "arm": r["arm"], "cells": {
            n: {"value": r[n], "text": texts.get((r["kpi"], r["arm"], n), display(r, n))} for n in bc.KPI_FIELDS}}
            for r in POOLED_APPLIES]
    assert display(pooled[("d30_retention_paid", "control")], "meets_target") == f"not measured: {REASON}"
    assert bc.compare_kpis(table(), pooled) == []
    silent = table({("d30_retention_paid", "control", "meets_target"): "not measured"})
    assert bc.compare_kpis(silent, pooled) == [
        f"kpi d30_retention_paid arm control: kpis.csv says it cannot be measured ({REASON!r}) but the page text "
        "'not measured' does not say why"], bc.compare_kpis(silent, pooled)
    # A reason with verdict-like words ("passed", "met") is not a verdict; a verdict before "not measured" is.
    for text, expected in [("not measured: no paywall passed, nobody met it", None),
                           ("✓ met (not measured: x)", "says true for an empty value")]:
        assert bc.display_disagrees(text, "", "fraction", "meets_target") == expected, text
    # Old kpis.csv (no `applies`): nothing to say why.
    old = {(r["kpi"], r["arm"]): r for r in POOLED}
    assert "applies" not in POOLED[0] and bc.compare_kpis(
        [{"kpi": r["kpi"], "arm": r["arm"], "cells": {n: {"value": r[n], "text": display(r, n)}
                                                      for n in bc.KPI_FIELDS}} for r in POOLED], old) == []


def selector_body(hide: bool, note: bool, wrongly: bool = False) -> str:
    """An arm selector (control, price) that filters the KPI rows and, for the retention chart (all control's),
    hides its trace for price; `hide` also hides the chart, `note` shows its note ([data-chart-note]) in its place;
    `wrongly` hides it for control, who has something in it."""
    return f"""<p class="note" data-chart-note="retention" hidden></p>
<select id="arm-select"><option value="">all arms</option><option value="control">control</option>
<option value="price">price</option></select>
<script>
document.getElementById("arm-select").addEventListener("change", function (e) {{
  var arm = e.target.value;
  document.querySelectorAll("tr[data-arm]").forEach(function (r) {{
    r.style.display = (!arm || r.dataset.arm === arm) ? "" : "none"; }});
  var div = document.getElementById("chart-retention"), none = arm === "price";
  Plotly.restyle(div, {{visible: !none}});
  var gone = {str(wrongly).lower()} ? arm === "control" : none;
  if ({str(hide).lower()}) div.hidden = gone;
  var n = document.querySelector('[data-chart-note="retention"]');
  if ({str(note).lower()}) {{ n.hidden = !gone; n.textContent = gone ? "Arm " + arm + " has nothing in this chart." : ""; }}
}});
</script>"""


def expect_failure(result: bc.Result, *messages: str):
    """The page failed and its failures contain every message (each as part of one failure line)."""
    assert not result.passed, f"{result.page} passed:\n{result.report()}"
    for message in messages:
        assert any(message in f for f in result.failures), f"no failure says {message!r}:\n{result.report()}"


def check_pages(browser: bc.Browser, pages: Pages) -> list[str]:
    """Every browser case; returns the names of those that did not behave."""
    control = ("d1_retention", "control")
    cases = {
        "good page passes": (pages.write("good"), None),
        "console.error fails": (pages.write("console", body='<script>console.error("x")</script>'),
                                ["console error: x"]),
        "an exception fails": (pages.write("throws", body='<script>throw new Error("boom")</script>'),
                               ["uncaught exception: Error: boom"]),
        "a network script fails": (pages.write("network", body='<script src="https://example.com/x.js"></script>'),
                                   ["requests https://example.com/x.js"]),
        "another local file fails": (pages.write("local", body='<img src="other.png" alt="">'),
                                     ["loads another local file: file://", "/local/other.png"]),
        "an undrawn chart fails": (pages.write("undrawn", undrawn=("ghost",)),
                                   ['chart "ghost" rendered nothing: no svg.main-svg, no trace drawn']),
        "no charts fails": (pages.write("nocharts", charts={}), ["no charts: the page has no [data-chart] element"]),
        "no rendered signal fails": (pages.write("silent", rendered=False),
                                     ['document.body.dataset.rendered never became "true"']),
        "charts drawn when scrolled to pass": (pages.write("lazy", lazy=("below", "further")), None),
        "a chart never drawn when scrolled to fails": (
            pages.write("lazy-never", lazy=("never",), lazy_drawn=False),
            ["timeout: chart(s) never scrolled into view were not drawn within",
             'chart "never" rendered nothing: no svg.main-svg, no trace drawn']),
        "a page over its size budget fails": (pages.write("budget"),
                                              ["bytes, over its budget of 1,000 bytes (--max-bytes)"]),
        "a load event that never comes is a timeout of its own": (
            pages.write("stuck"), ["timeout: the page's load event did not fire within 0 s"]),
        "a missing KPI row fails": (pages.write("missing", rows=POOLED[1:]),
                                    ["kpi d1_retention arm control of kpis.csv is missing from the KPI table"]),
        "a wrong display text fails": (pages.write("display", texts={(*control, "mean"): "17.3 %"}),
                                       ["kpi d1_retention arm control mean: page text '17.3 %' shows 0.173 "
                                        "(± 0.0005), kpis.csv '0.713333' (fraction)"]),
        "an extra KPI row fails": (pages.write("extra", rows=POOLED + [dict(POOLED[0], arm="ghost-arm")]),
                                   ["kpi d1_retention arm ghost-arm is in the KPI table but not in kpis.csv"]),
        "a JavaScript-built table fails JS off": (pages.write("jstable", table_by_js=True),
                                                  ["with JavaScript off the KPI table lacks 6 of 6 rows"]),
        "an arm selector that filters nothing fails": (
            pages.write("selector", body='<select id="arm-select"><option value="">all arms</option>'
                                         '<option value="control">control</option></select>'),
            ["arm selector on control: 1 table row shown or hidden wrongly"]),
        "a chart an arm has nothing in, hidden with its note, passes": (
            pages.write("hidden-noted", body=selector_body(hide=True, note=True)), None),
        "a chart an arm has nothing in, left empty without a note, fails": (
            pages.write("hidden-silent", body=selector_body(hide=False, note=False)),
            ["arm selector on price: nothing left visible in chart(s) retention and no note shown in its place"]),
        "a chart hidden though the arm has something in it fails": (
            pages.write("hidden-wrongly", body=selector_body(hide=True, note=True, wrongly=True)),
            ["arm selector on control: chart(s) retention hidden though they have something of the arm to show"]),
        "an unmeasured KPI with its reason passes (kpis.csv with applies)": (
            pages.write("applies", kpis_csv=KPIS_APPLIES_CSV, rows=POOLED_APPLIES), None),
        "an unmeasured KPI without its reason fails": (
            pages.write("noreason", kpis_csv=KPIS_APPLIES_CSV, rows=POOLED_APPLIES,
                        texts={("d30_retention_paid", "price", "meets_target"): "not measured"}),
            [f"kpi d30_retention_paid arm price: kpis.csv says it cannot be measured ('{REASON}') but the page "
             "text 'not measured' does not say why"]),
        "a comparison page passes without KPIs": (pages.write("compare", name="comparison.html", kpis=False, rows=[]),
                                                   None),
    }
    # Short ceilings only where the outcome does not depend on them: a page that never signals, a chart never drawn,
    # a load event asked for in no time. Every wait starts after the one before ended (the rendered signal's after
    # the load event, whose own ceiling is LOAD_SECONDS), so a slow machine changes how long a case takes, not what
    # it reports.
    ceilings = {"no rendered signal fails": {"render_seconds": 3.0},
                "a chart never drawn when scrolled to fails": {"draw_seconds": 3.0},
                "a page over its size budget fails": {"max_bytes": 1000},
                "a load event that never comes is a timeout of its own": {"load_seconds": 0.0}}
    bad = []
    for name, (path, messages) in cases.items():
        started = time.monotonic()
        result = bc.check_page(browser, path, path.parent.name + "/" + path.name, **ceilings.get(name, {}),
                               take_screenshot=name == "good page passes")   # the others: quicker without
        try:
            if messages is None:
                assert result.passed, result.report()
            else:
                expect_failure(result, *messages)
            if name == "good page passes":
                png = path.with_suffix(".png")
                assert png.is_file() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
                assert result.size[0] >= 1200 and result.size[1] > 600, result.size
                assert result.kpi_rows == 6 and result.charts == 2, result.report()
            if name == "charts drawn when scrolled to pass":
                assert result.lazy_charts == 2 and result.charts == 4, result.report()
                assert "4 charts rendered (2 drawn when scrolled to)" in result.report(), result.report()
            if name == "no rendered signal fails":
                assert not any(f.startswith("timeout:") for f in result.failures), result.report()
            if name.startswith("a comparison page"):
                assert "KPI table not checked (a comparison page)" in result.report(), result.report()
            print(f"ok   {name} ({time.monotonic() - started:.1f} s)")
        except AssertionError as e:
            print(f"FAIL {name}: {e}")
            bad.append(name)
        if result.browser_broken:
            raise SystemExit(f"the browser broke during {name!r}:\n{result.report()}")
    return bad


def check_command_line(pages: Pages) -> list[str]:
    """The command: one summary line for a good page, the failures and exit 1 for a bad one, exit 2 for a missing
    page or no Chromium."""
    script = str(HERE / "browser_check.py")
    good, bad = pages.root / "good" / "report.html", pages.root / "console" / "report.html"
    run = subprocess.run([sys.executable, script, str(good), str(bad), "--no-screenshot"], capture_output=True,
                         text=True, timeout=1800)   # a ceiling for a hung check, not a measure
    lines = run.stdout.splitlines()
    problems = []
    summary = re.compile(re.escape(f"browser-check: {good}: 2 charts rendered, 6 KPI rows match kpis.csv, no console "
                                   "errors, no requests, no screenshot, ") + r"[0-9,]+ bytes, load \d+\.\d\d s$")
    if run.returncode != 1 or not summary.match(lines[0]):
        problems.append(f"good + bad page: exit {run.returncode}\n{run.stdout}{run.stderr}")
    if (f"browser-check: {bad}: FAILED (1 problem)" not in lines
            or "\n  - console error: x (report.html:" not in run.stdout):
        problems.append(f"bad page not reported:\n{run.stdout}")
    missing = subprocess.run([sys.executable, script, str(pages.root / "nope.html")], capture_output=True, text=True)
    if missing.returncode != 2 or "no such page" not in missing.stderr:
        problems.append(f"missing page: exit {missing.returncode} {missing.stderr}")
    nochrome = subprocess.run([sys.executable, script, str(good), "--chromium", "/nonexistent/chromium"],
                              capture_output=True, text=True)
    if nochrome.returncode != 2 or bc.INSTALL_HINT not in nochrome.stderr:
        problems.append(f"no chromium: exit {nochrome.returncode} {nochrome.stderr}")
    print("ok   command line (exit 0/1/2, summary line)" if not problems else "FAIL command line")
    return problems


def main() -> int:
    started = time.monotonic()
    check_display_parser()
    check_kpi_comparison()
    print("ok   display parser and KPI comparison")
    chromium = bc.find_chromium(None)
    if not chromium:
        print(f"test_browser_check: Chromium not found: {bc.INSTALL_HINT}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="browser-check-test-") as d:
        pages = Pages(Path(d))
        with bc.Browser(chromium) as browser:
            bad = check_pages(browser, pages)
        problems = check_command_line(pages)
        for problem in problems:
            print(problem)
    failed = len(bad) + len(problems)
    print(f"browser_check self-test: {'all passed' if not failed else f'{failed} FAILED'} "
          f"({time.monotonic() - started:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
