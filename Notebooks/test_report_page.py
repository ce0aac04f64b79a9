#!/usr/bin/env python3
"""Checks report_page.py without a browser (browser_check.py does the rest in headless Chromium):

- numbers are written for people (percentages, currency, minutes; — for an empty cell);
- the KPI table holds exactly the pooled rows of kpis.csv, raw values and displayed text agreeing;
- every section is there in the reader's order, with an arm selector only where there are arms;
- the page is one file: no tag loads anything (no src/href but in-page anchors), the data and Plotly inlined;
- a page Habitat did not write, a link or a folder in the page's place is never replaced; its own page is;
- a folder that is not a run, and a CSV that is not a comparison, are refused with a clear message;
- a comparison CSV (habitat compare) gets its own page.

Runs against the committed baselines (Reports/baselines/*), copied to a temporary folder.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import pandas as pd  # noqa: E402

import report_page as rp  # noqa: E402

BASELINES = HERE.parent / "Reports" / "baselines"
FAILURES: list[str] = []


def check(condition: bool, message: str) -> None:
    if not condition:
        FAILURES.append(message)


class Page(HTMLParser):
    """The parts of a page the checks read: KPI rows and their cells, headings, loading attributes, selector."""

    def __init__(self):
        super().__init__()
        self.kpi_rows: list[dict] = []
        self.headings: list[str] = []
        self.loads: list[tuple[str, str, str]] = []
        self.has_selector = False
        self.chart_ids: list[str] = []
        self._in_kpi_table = False
        self._row: dict | None = None
        self._field: str | None = None
        self._text: list[str] = []
        self._heading = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("src", "href"):
            if key in a and not str(a[key]).startswith("#"):
                self.loads.append((tag, key, a[key]))
        if tag == "select" and a.get("id") == "arm-select":
            self.has_selector = True
        if a.get("data-chart"):
            self.chart_ids.append(a["data-chart"])
        if tag == "table":
            self._in_kpi_table = a.get("id") == "kpi-table"
        if self._in_kpi_table and tag == "tr" and "data-kpi" in a:
            self._row = {"kpi": a["data-kpi"], "arm": a.get("data-arm"), "fields": {}}
            self.kpi_rows.append(self._row)
        if self._row is not None and "data-field" in a:
            self._field = a["data-field"]
            self._row["fields"][self._field] = {"value": a.get("data-value", ""), "text": ""}
            self._text = []
        if tag == "h2":
            self._heading = True
            self._text = []

    def handle_endtag(self, tag):
        if self._field and tag in ("td", "span"):
            self._row["fields"][self._field]["text"] = "".join(self._text).strip()
            self._field = None
        if tag == "table":
            self._in_kpi_table = False
            self._row = None
        if tag == "h2" and self._heading:
            self.headings.append("".join(self._text).strip())
            self._heading = False

    def handle_data(self, data):
        if self._field or self._heading:
            self._text.append(data)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def check_formatting() -> None:
    cases = [((0.1234, "fraction"), "12.3 %"), ((0.004, "fraction"), "0.40 %"), ((0.0, "fraction"), "0.0 %"),
             ((1234.5, "usd"), "$1,234.50"), ((-12.345, "usd"), "-$12.35"), ((104.9, "minutes"), "105 min"),
             ((24.63, "count_per_day"), "24.6"), ((0.00124, "pct"), "0.00124"), ((float("nan"), "usd"), "—"),
             (("", "fraction"), "—"), ((16595.0, "count"), "16,595")]
    for (value, unit), expected in cases:
        got = rp.fmt(value, unit)
        check(got == expected, f"fmt({value!r}, {unit!r}) = {got!r}, expected {expected!r}")
    check(rp.target_text(0.55, None, "fraction") == "≥ 55.0 %", "a minimum target reads ≥")
    check(rp.target_text(None, 0.2, "fraction") == "≤ 20.0 %", "a maximum target reads ≤")
    check(rp.label("mrr_usd_at_horizon") == "MRR (USD) at horizon", rp.label("mrr_usd_at_horizon"))


def check_run_page(name: str, work: Path) -> None:
    run = work / name
    shutil.copytree(BASELINES / name, run)
    path = rp.write_page(run)
    check(path == run / "report.html", f"{name}: page written to {path}")
    page = parse(path)
    text = path.read_text(encoding="utf-8")
    check(rp.GENERATOR_MARK in text[:2000], f"{name}: the generator mark is missing")
    check(not page.loads, f"{name}: the page loads something: {page.loads[:3]}")
    check(text.count("<script") == 3 and 'id="habitat-charts"' in text, f"{name}: scripts are not inlined as expected")
    kpis = pd.read_csv(run / "kpis.csv", dtype=str, keep_default_na=False)
    pooled = kpis[kpis["replication"] == "all"]
    expected = {(r.kpi, r.arm): r for r in pooled.itertuples()}
    several = pooled["arm"].nunique() > 1
    seen = {(r["kpi"], r["arm"]) for r in page.kpi_rows}
    check(seen == set(expected), f"{name}: KPI rows differ from kpis.csv: missing {set(expected) - seen}, "
                                 f"extra {seen - set(expected)}")
    check(len(page.kpi_rows) == len(expected), f"{name}: duplicated KPI rows")
    for row in page.kpi_rows:
        csv = expected.get((row["kpi"], row["arm"]))
        if csv is None:
            continue
        for field in ("mean", "ci_low", "ci_high", "target_min", "target_max", "meets_target"):
            cell = row["fields"].get(field)
            check(cell is not None, f"{name}: {row['kpi']} has no {field} cell")
            if cell is None:
                continue
            check(cell["value"] == getattr(csv, field), f"{name}: {row['kpi']} {field} = {cell['value']!r}, "
                                                       f"kpis.csv says {getattr(csv, field)!r}")
            if field != "meets_target":
                shown = rp.fmt(getattr(csv, field), csv.unit)
                check(cell["text"] == shown, f"{name}: {row['kpi']} {field} shows {cell['text']!r}, not {shown!r}")
    order = ["What was run", "KPIs against their targets", "The world check", "Activation funnel", "Retention",
             "Revenue", "Battery"] + (["Arms against the control"] if several else [])
    present = [h for h in page.headings if h in order]
    check(present == order, f"{name}: sections {page.headings}, expected in order {order}")
    check(page.has_selector == several, f"{name}: arm selector {'missing' if several else 'on a one-arm run'}")
    for chart in ["world-check", "funnel", "retention", "battery", "energy"] + (["experiment"] if several else []):
        check(chart in page.chart_ids, f"{name}: no {chart} chart")

    # Its own page is replaced; anything else in its place is refused and left as it was.
    rp.write_page(run)
    (run / "report.html").write_text("<html>mine</html>", encoding="utf-8")
    refused(lambda: rp.write_page(run), "was not written by Habitat", f"{name}: someone else's report.html")
    check((run / "report.html").read_text(encoding="utf-8") == "<html>mine</html>", f"{name}: a foreign page changed")
    (run / "report.html").unlink()
    (run / "report.html").symlink_to(run / "kpis.csv")
    refused(lambda: rp.write_page(run), "not a regular file", f"{name}: a link in the page's place")
    check((run / "report.html").is_symlink(), f"{name}: the link was replaced")
    check(not list(run.glob(".report.html.*")), f"{name}: a temporary file was left behind")


def refused(action, words: str, what: str) -> None:
    try:
        action()
    except rp.PageError as e:
        check(words in str(e), f"{what}: refused with {e!s}, expected '{words}'")
        return
    FAILURES.append(f"{what}: not refused")


def check_refusals(work: Path) -> None:
    empty = work / "empty"
    empty.mkdir()
    refused(lambda: rp.write_page(empty), "missing activation-funnel.csv", "a folder without reports")
    check(not (empty / "report.html").exists(), "a page was written into a folder without reports")
    bad = work / "not-a-comparison.csv"
    bad.write_text("a,b\n1,2\n", encoding="utf-8")
    refused(lambda: rp.write_page(bad), "not a habitat compare CSV", "a CSV that is not a comparison")


def check_comparison_page(work: Path) -> None:
    csv = work / "comparison.csv"
    shutil.copy(BASELINES / "premium-price-test" / "experiment.csv", csv)
    path = rp.write_page(csv)
    check(path == work / "comparison.html", f"comparison page at {path}")
    page = parse(path)
    check("comparison" in page.chart_ids, "the comparison page has no forest plot")
    check(not page.loads, f"the comparison page loads something: {page.loads[:3]}")


def main() -> int:
    check_formatting()
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        for name in ["scroll-off-baseline", "premium-price-test", "launch-forecast-12m", "earned-access-baseline"]:
            check_run_page(name, work)
        check_refusals(work)
        check_comparison_page(work)
    for f in FAILURES:
        print(f"test_report_page: FAIL {f}", file=sys.stderr)
    if FAILURES:
        return 1
    print("test_report_page: formatting, KPI table = kpis.csv, sections, self-contained, overwrite safety, "
          "refusals, comparison page: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
