#!/usr/bin/env python3
"""Checks report_page.py without a browser (browser_check.py does the rest in headless Chromium):

- numbers are written for people (percentages, currency, minutes; — for an empty cell);
- the KPI table holds exactly the pooled rows of kpis.csv, raw values and displayed text agreeing;
- every section is there in the reader's order, with an arm selector only where there are arms;
- the page is one file: no tag loads anything (no src/href but in-page anchors), the data and Plotly inlined;
- a page Habitat did not write, a link or a folder in the page's place is never replaced; its own page is;
- a folder that is not a run, and a CSV that is not a comparison, are refused with a clear message;
- a comparison CSV (habitat compare) gets its own page;
- the headline names both D1 retentions (product in use, app opened) from retention.csv's pooled day-1 rows of the
  first arm, and leaves the item out for a run shorter than 2 days;
- decisions.csv becomes the Decisions table (after the funnel, in the nav; per-opportunity ratio and outcome shares
  per decision kind, rows marked with their arm), and a run without it has no such section;
- a KPI kpis.csv marks as not applicable (`applies`) says why it is not measured; a kpis.csv without the column
  (older runs) reads as before;
- issue 28, on a real run whose arms are different products (scroll-off, earned-access, none; two personas): the
  products section right after what was run, in the nav, with its chart; the claims table (claimed beside the true
  effect, the verdict), the side-by-side table (each arm's mean, its paired difference from none and from the first
  product, as product-comparison.csv says), effect against cost, the persona table; the headline's effects; the KPI
  table still equal to kpis.csv; a single-product run has no such section; a run of none (no app) gets a page of
  its four files (what was run, KPIs, world check, learning with its untreated minutes); a product-comparison.csv
  with a column missing, a word where a number belongs, or nothing in it is refused with a message naming the file
  and what is wrong, and no page is written;
- issue 43, on a real run of Lazuri: the user study's section after the cards, its histogram's table from a
  study.csv written by hand (replications counting each number of people, pooled rows left out, the thesis's marks
  and the share at or above each), and with the run's two replications the note that a histogram needs many;
- issue 44, on a real run of Clavis with two arms of its match policy: its three sections after learning, in order,
  each with its charts (lock cycles, urges, scans by lighting, the trade-off scatter), and the scatter's table: a
  row per arm whose false-accept and false-reject shares are the means over replications of scan-policy.csv's
  per-replication rows (the pooled rows not used), with their 95 % intervals.

Runs against the committed baselines (Reports/baselines/*), copied to a temporary folder; the headline, decisions and
`applies` cases replace or add CSVs written by hand in such a copy. The issue-28 runs are made with the habitat
binary (habitat_runs.py: $HABITAT, else .build/debug/habitat).
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import pandas as pd  # noqa: E402

import habitat_runs  # noqa: E402
import report_page as rp  # noqa: E402

BASELINES = HERE.parent / "Reports" / "baselines"
FAILURES: list[str] = []


STUDY_HEADER = "figure,people,count"


def check_study_page(work: Path) -> None:
    """Issue 43, on a real run of Lazuri: its study.csv replaced by one written by hand — 24 replications of 8 people,
    each figure's count a known function of the replication, and pooled rows (replication all) that must not be
    counted — becomes the user study's section after the cards, with the histogram chart and its table: per figure the
    replications counting 0…8 people, the mean, the thesis's mark and the share of replications at or above it. The
    run's own two replications: the section says a histogram needs many replications, draws no chart, and lists what
    each replication counted."""
    run = work / "lazuri"
    shutil.copytree(habitat_runs.lazuri_run(work / "made"), run)
    path = rp.write_page(run, STUB_PLOTLY)
    page, tables = parse(path), tables_of(path)
    text = path.read_text(encoding="utf-8")
    check("<h2>The thesis's user study, run many times</h2>" in text.replace("&#x27;", "'"),
          f"study: no section on a run with study.csv: {page.headings}")
    check("A histogram needs many replications: this run has 2 replications, and at least 20" in text,
          "study: two replications without the too-few note")
    check("lazuri-study" not in page.chart_ids, f"study: a histogram drawn from two replications {page.chart_ids}")
    rows = tables.body_rows("lazuri-study-table")
    check(len(rows) == 5 and all(re.fullmatch(r"\d+ of \d+, \d+ of \d+", cells[-1]) for _, cells in rows),
          f"study: what each replication counted {rows}")
    # 24 replications written by hand: replication r counts r % 9 kept a week (0 in replications 9 and 18, 8 of 8 in
    # 8 and 17: 2 of 24, 7 in 7 and 16, 1…6 three times each), 8 used every checklist feature in replication 24
    # only, r % 3 stalled in onboarding.
    counts = {"week_kept": lambda r: r % 9, "opened_day_7": lambda r: 0, "checklist_completed": lambda r: 8 * (r == 24),
              "achievement_week": lambda r: r % 2 + 1, "onboarding_stalled": lambda r: r % 3}
    lines = []
    for figure, count in counts.items():
        ks = [count(r) for r in range(1, 25)]
        lines += [f"s,control,{r},lazuri,{figure},8,{k}" for r, k in zip(range(1, 25), ks)]
        lines.append(f"s,control,all,lazuri,{figure},192,{sum(ks)}")
    write_csv(run / "study.csv", STUDY_HEADER, lines)
    path = rp.write_page(run, STUB_PLOTLY)
    page, tables = parse(path), tables_of(path)
    check("lazuri-study" in page.chart_ids, f"study: no histogram from 24 replications {page.chart_ids}")
    headings = [h.replace("&#x27;", "'") for h in page.headings]
    check(headings.index("The thesis's user study, run many times") == headings.index("Cards, achievements and score") + 1
          if "Cards, achievements and score" in headings and "The thesis's user study, run many times" in headings
          else False, f"study: not right after the cards: {headings}")
    got = {cells[0]: cells[1:] for _, cells in tables.body_rows("lazuri-study-table")}
    expected = {
        "kept the app through day 7": ["2", "3", "3", "3", "3", "3", "3", "2", "2", "3.88", "thesis: 8 of 8 kept it a week",
                                       "8 of 8 in 8.3 % of simulated studies (2 of 24)"],
        "opened it on day 7": ["24"] + ["0"] * 8 + ["0", None, "8 of 8 in none of 24 simulated studies"],
        "used every checklist feature by day 7": ["23"] + ["0"] * 7 + ["1", "0.333", None,
                                                                       "8 of 8 in 4.2 % of simulated studies (1 of 24)"],
        "reached an achievement by day 7": ["0", "12", "12"] + ["0"] * 6 + ["1.50", "—",
                                                                            "mean 1.5 of 8 over 24 simulated studies"],
        "stalled before a schedule was on": ["8", "8", "8"] + ["0"] * 6 + ["1.00", None, "2 of 8 or more in 33.3 % of "
                                             "simulated studies (8 of 24); exactly 2: 33.3 %"]}
    for figure, cells in expected.items():
        row = got.get(figure)
        check(row is not None and len(row) == len(cells)
              and all(c is None or c == r for c, r in zip(cells, row)), f"study: {figure}: {row}, expected {cells}")
    check(all(row[-2].startswith("thesis: ") for f, row in got.items() if f != "reached an achievement by day 7")
          and "intention" in got.get("opened it on day 7", [""] * 11)[-2],
          f"study: the marks' labels {[row[-2] for row in got.values()]}")
    check("A histogram needs many replications" not in path.read_text(encoding="utf-8"),
          "study: the too-few note with 24 replications")


def check_clavis_page(work: Path) -> None:
    """Issue 44, on a real run of Clavis whose arms are two thresholds of its match policy (and the scenario's own arm,
    a sweep keeps it: the default policy): the page has Clavis's
    three sections right after learning — lock cycles and urges, scans by lighting, the match policy — with their
    charts (clavis-lock-cycles, clavis-urges, clavis-scans, clavis-tradeoff), and the trade-off table has a row per
    arm whose shares are the means of scan-policy.csv's per-replication rows (pooled rows not used), each with its
    95 % interval when it has one."""
    import numpy as np
    run = work / "clavis"
    shutil.copytree(habitat_runs.clavis_run(work / "made"), run)
    path = rp.write_page(run, STUB_PLOTLY)
    page, tables = parse(path), tables_of(path)
    titles = ["Lock cycles and urges at the lock", "Scans of the key by lighting",
              "The match policy: false rejects against false accepts"]
    headings = [h.replace("&quot;", '"') for h in page.headings]
    at = [headings.index(x) if x in headings else -1 for x in titles]
    check(-1 not in at and "Learning, week by week" in headings
          and at == list(range(headings.index("Learning, week by week") + 1, headings.index("Learning, week by week") + 4)),
          f"clavis: its sections not right after learning, in order: {headings}")
    for chart_id in ("clavis-lock-cycles", "clavis-urges", "clavis-scans", "clavis-tradeoff"):
        check(chart_id in page.chart_ids, f"clavis: no {chart_id} chart on the page {page.chart_ids}")
    df = pd.read_csv(run / "scan-policy.csv", dtype={"replication": str})
    df = df[df["replication"] != "all"]
    rows = {cells[0]: cells for _, cells in tables.body_rows("clavis-tradeoff-table")}
    arms = list(dict.fromkeys(df["arm"].astype(str)))
    check(len(arms) == 3 and sorted(rows) == sorted(arms), f"clavis: the trade-off table's arms {sorted(rows)}, "
                                                           f"scan-policy.csv's {arms}")
    for arm in arms:
        mine = df[df["arm"].astype(str) == arm]
        for column, i in (("false_accept_share", 1), ("false_reject_share", 2)):
            values = pd.to_numeric(mine[column], errors="coerce").dropna()
            mean = values.mean()
            half = values.std() / np.sqrt(len(values)) * rp.hp._t95(len(values)) if len(values) > 1 else 0.0
            want = rp.fmt(mean, "fraction") + (f" ± {rp.fmt(half, 'fraction')}" if half > 0 else "")
            got = rows.get(arm, [""] * 4)[i]
            check(got.replace("\xa0", " ") == want, f"clavis: {arm} {column}: table {got!r}, expected {want!r}")
        check(rows.get(arm, [""] * 4)[3] == str(len(mine)), f"clavis: {arm}: replications {rows.get(arm)}")


def check(condition: bool, message: str) -> None:
    if not condition:
        FAILURES.append(message)


class Tables(HTMLParser):
    """Every table's body rows ({table id: [(row attributes, [cell texts])]}), the nav's links and each section's
    intro, as a reader without JavaScript gets them."""

    def __init__(self):
        super().__init__()
        self.tables: dict[str, list[tuple[dict, list[str]]]] = {}
        self.nav: list[tuple[str, str]] = []
        self.intros: dict[str, str] = {}
        self._table: str | None = None
        self._cells: list[str] | None = None
        self._text: list[str] | None = None
        self._in_nav = False
        self._link: str | None = None
        self._section: str | None = None
        self._intro = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self._table = a.get("id", "")
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self._cells = []
            self.tables[self._table].append((a, self._cells))
        elif tag == "td" and self._cells is not None:
            self._text = []
        elif tag == "br" and self._text is not None:
            self._text.append(" ")
        elif tag == "nav":
            self._in_nav = True
        elif tag == "a" and self._in_nav:
            self._link, self._text = a.get("href", ""), []
        elif tag == "section":
            self._section = a.get("id")
        elif tag == "p" and a.get("class") == "intro" and self._section:
            self._intro, self._text = True, []

    def handle_endtag(self, tag):
        if tag == "td" and self._text is not None and self._cells is not None:
            self._cells.append("".join(self._text).strip())
            self._text = None
        elif tag == "tr":
            self._cells = None
        elif tag == "table":
            self._table = None
        elif tag == "a" and self._link is not None:
            self.nav.append((self._link, "".join(self._text).strip()))
            self._link, self._text = None, None
        elif tag == "nav":
            self._in_nav = False
        elif tag == "p" and self._intro:
            self.intros[self._section] = "".join(self._text).strip()
            self._intro, self._text = False, None

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)

    def body_rows(self, table_id: str) -> list[tuple[dict, list[str]]]:
        """The rows of a table that hold cells (not the header row)."""
        return [(a, cells) for a, cells in self.tables.get(table_id, []) if cells]


def tables_of(path: Path) -> Tables:
    page = Tables()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def headline_of(path: Path) -> str:
    """The headline paragraph's inner HTML."""
    found = re.search(r'<p class="headline">(.*?)</p>', path.read_text(encoding="utf-8"), re.DOTALL)
    return found.group(1) if found else ""


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
    several = check_kpi_table(name, run, page)
    # Revenue only where some money moved (with only the charter's chips a small run may sell nothing, issue 25).
    money = len((run / "revenue.csv").read_text(encoding="utf-8").strip().splitlines()) > 1
    order = ["What was run", "KPIs against their targets", "The world check", "Activation funnel", "Decisions", "Retention",
             *(["Revenue"] if money else []), "Battery"] + (["Arms against the control"] if several else [])
    present = [h for h in page.headings if h in order]
    check(present == order, f"{name}: sections {page.headings}, expected in order {order}")
    check(page.has_selector == several, f"{name}: arm selector {'missing' if several else 'on a one-arm run'}")
    # One product: no product comparison (issue 28), neither section nor link nor chart.
    check('<section id="products">' not in text and 'href="#products"' not in text
          and "product-comparison" not in page.chart_ids, f"{name}: a products section in a run of one product")
    for chart in ["world-check", "funnel", "retention", "battery", "energy"] + (["experiment"] if several else []):
        check(chart in page.chart_ids, f"{name}: no {chart} chart")
    # Every run writes decisions.csv (issue 25): the baselines' pages have the Decisions section and its link.
    check("Decisions" in page.headings and 'id="decisions-table"' in text and 'href="#decisions"' in text,
          f"{name}: no Decisions section, though the run wrote decisions.csv")
    # kpis.csv's `applies` (issue 25): a KPI without a value reads "not measured" and why.
    for row in page.kpi_rows:
        cell = row["fields"].get("meets_target", {})
        if row["fields"].get("mean", {}).get("value") == "" and cell.get("value") == "":
            check(str(cell.get("text", "")).startswith("not measured: "), f"{name}: {row['kpi']} without a value shows "
                                                      f"{cell.get('text')!r}, expected 'not measured'")

    # Its own page is replaced; anything else in its place is refused and left as it was.
    rp.write_page(run)
    (run / "report.html").write_text("<html>mine</html>", encoding="utf-8")
    refused(lambda: rp.write_page(run), "was not written by Habitat", f"{name}: someone else's report.html")
    check((run / "report.html").read_text(encoding="utf-8") == "<html>mine</html>", f"{name}: a foreign page changed")
    (run / "report.html").unlink()
    (run / "report.html").symlink_to(run / "kpis.csv")
    refused(lambda: rp.write_page(run), "not a regular file", f"{name}: a link in the page's place")
    check((run / "report.html").is_symlink(), f"{name}: the link was replaced")
    check(not list(run.glob(".report-page.*")), f"{name}: a temporary file was left behind")


def check_kpi_table(name: str, run: Path, page: "Page") -> bool:
    """The page's KPI table holds exactly kpis.csv's pooled rows, raw values and display text agreeing; returns
    whether the run has several arms."""
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
    return several


KEYS = "scenario,arm,replication,product"
STUB_PLOTLY = "/* plotly.js stands here on a real page */"


def write_csv(path: Path, header: str, rows: list[str]) -> None:
    """A report written by hand: the key columns, then `header`; CRLF records like Habitat writes."""
    path.write_text("\r\n".join([f"{KEYS},{header}", *rows]) + "\r\n", encoding="utf-8")


def retention_rows(arm: str, pooled: dict[str, int], days: range = range(3)) -> list[str]:
    """retention.csv rows of one arm of premium-price-test: replications 1 and 2 (500 installs each) and the pooled
    rows (1,000), cohort and segment `all`, for `days`; `pooled` gives day 1's (active of 1,000) per reading, the
    replications splitting it unevenly. A cohort row and a persona row with other day-1 figures must be ignored."""
    rows = []
    for activity, active in pooled.items():
        for day in days:
            a = 1000 if day == 0 else active if day == 1 else active // 2
            first = a // 2 - 3 if day else 500
            for rep, n, size in [("1", first, 500), ("2", a - first, 500), ("all", a, 1000)]:
                rows.append(f"premium-price-test,{arm},{rep},scroll-off,all,all,{activity},{day},{size},{n},"
                            f"{n / size:.6f}")
            if day == 1:
                rows.append(f"premium-price-test,{arm},all,scroll-off,2026-W02,all,{activity},1,100,99,0.990000")
                rows.append(f"premium-price-test,{arm},all,scroll-off,all,student,{activity},1,100,98,0.980000")
    return rows


RETENTION_HEADER = "cohort,segment,activity,day,cohort_size,active,retention"


def check_headline_retention(work: Path) -> None:
    """The headline reads D1 retention from retention.csv's pooled day-1 rows (cohort and segment `all`) of the
    first arm, both readings each with its label; the other KPI items stay; a run shorter than 2 days has none."""
    run = work / "headline"
    shutil.copytree(BASELINES / "premium-price-test", run)
    write_csv(run / "retention.csv", RETENTION_HEADER,
              retention_rows("control", {"in_use": 705, "app_opened": 258})
              + retention_rows("premium-599", {"in_use": 901, "app_opened": 902}))
    headline = headline_of(rp.write_page(run, STUB_PLOTLY))
    expected = ("D1 retention <b>70.5 %</b> product in use (the charter's KPI reading) · <b>25.8 %</b> app opened "
                "of the person's own accord (the world check's reading)")
    check(expected in headline, f"headline: {headline!r} lacks {expected!r}")
    check("90.1 %" not in headline and "90.2 %" not in headline and "99.0 %" not in headline
          and "98.0 %" not in headline, f"headline: another arm's, cohort's or persona's retention in {headline!r}")
    check(headline.count("D1 retention") == 1, f"headline: D1 retention said twice: {headline!r}")
    check(headline.startswith("<b>") and "KPI targets met" in headline and "world-check figures inside" in headline
          and "net revenue <b>$" in headline and headline.endswith("(arm control)"),
          f"headline: the other items are gone: {headline!r}")
    # Shorter than 2 days: no day-1 row, no retention item (and no error).
    write_csv(run / "retention.csv", RETENTION_HEADER,
              retention_rows("control", {"in_use": 705, "app_opened": 258}, range(1))
              + retention_rows("premium-599", {"in_use": 901, "app_opened": 902}, range(1)))
    headline = headline_of(rp.write_page(run, STUB_PLOTLY))
    check("retention" not in headline and "KPI targets met" in headline,
          f"headline of a one-day run: {headline!r}")
    # Earned Access has no d1_retention KPI: both readings still, product in use not called the charter's KPI.
    ea = work / "headline-ea"
    shutil.copytree(BASELINES / "earned-access-baseline", ea)
    headline = headline_of(rp.write_page(ea, STUB_PLOTLY))
    r = pd.read_csv(ea / "retention.csv", dtype={"replication": str})
    r["activity"] = r["activity"].replace(rp.hp.OLD_NAMES[("retention", "activity")])   # a baseline recorded before issue 39
    day1 = r[(r["replication"] == "all") & (r["cohort"] == "all") & (r["segment"] == "all") & (r["day"] == 1)]
    use, opened = (rp.fmt(day1[day1["activity"] == a]["retention"].iloc[0], "fraction")
                   for a in ["in_use", "app_opened"])
    expected = (f"D1 retention <b>{use}</b> product in use · <b>{opened}</b> app opened of the person's own accord "
                f"(the world check's reading)")
    check(expected in headline and "charter" not in headline, f"Earned Access headline: {headline!r}, expected "
                                                              f"{expected!r}")


DECISIONS_HEADER = "decision,opportunity,per_opportunity,opportunities,decisions,outcome,count,share"


def decision_rows(arm: str, rep: str, kinds: list[tuple[str, str, int, int, int, list[tuple[str, int]]]]) -> list[str]:
    """decisions.csv rows of one arm and replication: per kind (decision, opportunity, per_opportunity,
    opportunities, decisions, [(outcome, count)]) one row per outcome, share = count ÷ decisions (empty for 0)."""
    rows = []
    for decision, opportunity, most, opportunities, decisions, outcomes in kinds:
        for outcome, count in outcomes:
            share = f"{count / decisions:.6f}" if decisions else ""
            rows.append(f"premium-price-test,{arm},{rep},scroll-off,{decision},{opportunity},{most},{opportunities},"
                        f"{decisions},{outcome},{count},{share}")
    return rows


def check_decisions(work: Path) -> None:
    """decisions.csv's pooled rows as the Decisions table, after the funnel and in the nav: one row per kind and arm
    in file order, the event, opportunities, decisions, decisions ÷ opportunities to 2 decimals (— for none), each
    outcome's share; every row marked with its arm for the selector. Replication rows are not shown."""
    run = work / "decisions"
    shutil.copytree(BASELINES / "premium-price-test", run)
    pooled = [("trial_keep", "trial_ended", 1, 50, 50, [("keep", 24), ("cancel", 26)]),
              ("paywall_purchase", "paywall_shown", 1, 200, 106,
               [("buy_monthly", 10), ("start_trial", 40), ("decline", 56)]),
              ("onboarding_step", "onboarding_screen", 3, 1200, 2521, [("continue", 2400), ("quit", 121)]),
              ("refund_request", "charge", 1, 0, 0, [("request", 0), ("keep", 0)])]
    one = [(d, o, m, n // 2, k // 2, [(x, c // 2) for x, c in outs]) for d, o, m, n, k, outs in pooled]
    other = [("trial_keep", "trial_ended", 1, 40, 40, [("keep", 30), ("cancel", 10)])]
    write_csv(run / "decisions.csv", DECISIONS_HEADER,
              decision_rows("control", "1", one) + decision_rows("control", "all", pooled)
              + decision_rows("premium-599", "1", other) + decision_rows("premium-599", "all", other))
    path = rp.write_page(run, STUB_PLOTLY)
    page, tables = parse(path), tables_of(path)
    headings = [h for h in page.headings if h in ("Activation funnel", "Decisions", "Retention")]
    check(headings == ["Activation funnel", "Decisions", "Retention"], f"decisions: sections {page.headings}")
    check(("#decisions", "decisions") in tables.nav, f"decisions: not in the nav {tables.nav}")
    links = [link for link, _ in tables.nav]
    check([link for link in links if link in ("#funnel", "#decisions", "#retention")]
          == ["#funnel", "#decisions", "#retention"], f"decisions: nav {links}")
    intro = tables.intros.get("decisions", "")
    check(intro.startswith("Every kind of decision the simulated people make, the moment that allows it")
          and "paywall views led to a trial" in intro and "trials were kept" in intro,
          f"decisions: intro {intro!r}")
    rows = tables.body_rows("decisions-table")
    got = [(a.get("data-arm"), cells) for a, cells in rows]
    expected = [
        ("control", ["control", "trial_keep", "trial_ended at most 1 per opportunity", "50", "50", "1.00",
                     "keep 48.0 % · cancel 52.0 %"]),
        ("control", ["control", "paywall_purchase", "paywall_shown at most 1 per opportunity", "200", "106", "0.53",
                     "buy_monthly 9.4 % · start_trial 37.7 % · decline 52.8 %"]),
        ("control", ["control", "onboarding_step", "onboarding_screen at most 3 per opportunity", "1,200", "2,521",
                     "2.10", "continue 95.2 % · quit 4.8 %"]),
        ("control", ["control", "refund_request", "charge at most 1 per opportunity", "0", "0", "—",
                     "request — · keep —"]),
        ("premium-599", ["premium-599", "trial_keep", "trial_ended at most 1 per opportunity", "40", "40", "1.00",
                         "keep 75.0 % · cancel 25.0 %"])]
    check(got == expected, "decisions: table rows\n  " + "\n  ".join(map(str, got)) + "\nexpected\n  "
          + "\n  ".join(map(str, expected)))
    text = path.read_text(encoding="utf-8")
    check(text.count('id="decisions-table"') == 1, "decisions: one table per page")
    # Runs written before decisions.csv: no section (check_run_page); a header-only file neither, and no error.
    write_csv(run / "decisions.csv", DECISIONS_HEADER, [])
    text = rp.write_page(run, STUB_PLOTLY).read_text(encoding="utf-8")
    check('id="decisions-table"' not in text and 'href="#decisions"' not in text,
          "decisions: a section for a decisions.csv without rows")
    (run / "decisions.csv").unlink()
    text = rp.write_page(run, STUB_PLOTLY).read_text(encoding="utf-8")
    check('id="decisions-table"' not in text and "<h2>Decisions</h2>" not in text,
          "decisions: a section without decisions.csv")


def check_kpi_applies(work: Path) -> None:
    """kpis.csv's `applies`: a KPI the run cannot measure says why after "not measured"; the KPI table still equals
    kpis.csv (the new column is no field of it). Without the column (older runs), "not measured" alone."""
    run = work / "applies"
    shutil.copytree(BASELINES / "scroll-off-baseline", run)
    reason = "needs 31 days; run has 30"
    lines = (run / "kpis.csv").read_text(encoding="utf-8").splitlines()
    if lines[0].endswith(",applies"):   # the run wrote its own reasons (issue 25)
        rows = lines[1:]
    else:
        rows = []
        for line in lines[1:]:
            kpi, mean = line.split(",")[4], line.split(",")[6]
            rows.append(line + "," + (reason if kpi.startswith("d30_retention_paid") and mean == "" else "yes"))
        lines[0] += ",applies"
    unmeasured = [r for r in rows if r.endswith(reason) and ",all," in r]
    check(len(unmeasured) == 2, f"applies: the fixture expected 2 pooled KPIs needing 31 days, got {unmeasured}")
    (run / "kpis.csv").write_text("\r\n".join([lines[0], *rows]) + "\r\n", encoding="utf-8")
    path = rp.write_page(run, STUB_PLOTLY)
    page = parse(path)
    check_kpi_table("applies", run, page)
    shown = {r["kpi"]: r["fields"]["meets_target"] for r in page.kpi_rows}
    for kpi in ["d30_retention_paid", "d30_retention_paid_app_opened"]:
        cell = shown.get(kpi, {})
        check(cell.get("text") == f"not measured: {reason}" and cell.get("value") == "",
              f"applies: {kpi} shows {cell!r}, expected 'not measured: {reason}'")
    check(shown.get("d1_retention", {}).get("text") == "✓ met", f"applies: d1_retention shows "
                                                                 f"{shown.get('d1_retention')!r}")
    check(text_count(path, "not measured") == text_count(path, "not measured: "), "applies: a 'not measured' without its reason")


def text_count(path: Path, words: str) -> int:
    return path.read_text(encoding="utf-8").count(words)


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
    refused(lambda: rp.write_page(empty), "missing kpis.csv", "a folder without reports")
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


LEARNING_HEADER = ("week_since_install,status,person_days,urges_per_day,shields_per_day,opens_per_day,passes_per_day,"
                   "opened_share,dormant_shield_share,mean_app_habit,untreated_urges_per_day,urges_vs_untreated")


def check_learning(work: Path) -> None:
    """learning.csv's pooled rows of people still using the product as the Learning table, after the decisions and
    before retention, in the nav; one row per week in file order with the week's dormant share of shields from its
    `all` row; replication rows and the other statuses are not shown."""
    run = work / "learning"
    shutil.copytree(BASELINES / "premium-price-test", run)
    rows = []
    for rep in ["1", "all"]:
        for arm in ["control"]:
            rows += [f"premium-price-test,{arm},{rep},scroll-off,1,all,700,25.0000,10.0000,15.0000,5.0000,0.750000,0.200000,0.6000,28.0000,0.892857",
                     f"premium-price-test,{arm},{rep},scroll-off,1,active,500,24.0000,12.5000,11.0000,6.0000,0.647059,,0.5500,29.0000,0.827586",
                     f"premium-price-test,{arm},{rep},scroll-off,1,dormant,200,27.5000,3.7500,25.0000,2.5000,0.909091,,0.6500,26.0000,1.057692",
                     f"premium-price-test,{arm},{rep},scroll-off,2,all,600,24.0000,9.0000,16.0000,4.0000,0.800000,0.100000,0.5500,28.0000,0.857143",
                     f"premium-price-test,{arm},{rep},scroll-off,2,active,300,22.0000,11.0000,10.0000,5.5000,0.645161,,0.4500,29.5000,0.745763"]
    write_csv(run / "learning.csv", LEARNING_HEADER, rows)
    path = rp.write_page(run, STUB_PLOTLY)
    page, tables = parse(path), tables_of(path)
    headings = [h for h in page.headings if h in ("Decisions", "Learning, week by week", "Retention")]
    check(headings[-2:] == ["Learning, week by week", "Retention"], f"learning: sections {page.headings}")
    check(("#learning", "learning") in tables.nav, f"learning: not in the nav {tables.nav}")
    got = [cells for _, cells in tables.body_rows("learning-table")]
    expected = [["1", "500", "24.0", "12.5", "11.0", "64.7%", "0.828", "0.550", "20.0%"],
                ["2", "300", "22.0", "11.0", "10.0", "64.5%", "0.746", "0.450", "10.0%"]]
    check(got == expected, f"learning: rows {got}")


def pooled_comparison(run: Path) -> pd.DataFrame:
    """product-comparison.csv's pooled rows as written (text), replication `all` or empty."""
    df = pd.read_csv(run / "product-comparison.csv", dtype=str, keep_default_na=False)
    return df[df["replication"].isin(["all", ""])]


def check_products_page(work: Path) -> None:
    """A real run whose arms are scroll-off, earned-access and none: the products section after what was run, and
    its tables exactly as product-comparison.csv says."""
    run = work / "products"
    shutil.copytree(habitat_runs.products_run(work / "made"), run)
    path = rp.write_page(run, STUB_PLOTLY)
    page, tables = parse(path), tables_of(path)
    text = path.read_text(encoding="utf-8")
    check(page.headings[:2] == ["What was run", "Products compared on the same people"],
          f"products: sections {page.headings}")
    check(("#products", "products") in tables.nav and tables.nav.index(("#products", "products")) == 1,
          f"products: not second in the nav {tables.nav}")
    check("product-comparison" in page.chart_ids, "products: no product-comparison chart")
    check(page.has_selector and not page.loads, "products: selector missing or something loaded")
    check_kpi_table("products", run, page)
    csv = pooled_comparison(run)
    everyone = csv[csv["persona"] == "all"]
    # The side-by-side table: one row per KPI and arm (claims apart), KPIs in file order and each KPI's arms
    # together in file (scenario) order, marked with its arm.
    kpis = everyone[everyone["kind"] != "claim"]
    kpis = pd.concat([g for _, g in kpis.groupby(["kpi", "kind"], sort=False)])
    rows = tables.body_rows("products-table")
    check(len(rows) == len(kpis), f"products: {len(rows)} side-by-side rows, product-comparison.csv has {len(kpis)}")
    for (attrs, cells), (_, r) in zip(rows, kpis.iterrows()):
        unit = r["unit"]
        expected = [r["arm"], rp.fmt(r["mean"], unit), rp.interval(r["ci_low"], r["ci_high"], unit),
                    rp.signed(r["vs_none_diff"], unit),
                    rp.interval(r["vs_none_ci_low"], r["vs_none_ci_high"], unit, True),
                    rp.signed(r["vs_first_diff"], unit),
                    rp.interval(r["vs_first_ci_low"], r["vs_first_ci_high"], unit, True)]
        check(cells[1:] == expected and attrs.get("data-arm") == r["arm"],
              f"products: row {r['kpi']}/{r['arm']} shows {cells[1:]}, expected {expected}")
        if cells[0]:
            check(cells[0].startswith(rp.label(r["kpi"])) and r["kpi"] in cells[0],
                  f"products: the KPI cell {cells[0]!r} for {r['kpi']}")
    check(any("−" in c for _, cells in rows for c in cells), "products: no negative difference shown")
    # The claims: each claim row, claimed beside the true effect on the same people, with the verdict.
    claims = everyone[everyone["kind"] == "claim"]
    got = tables.body_rows("claims-table")
    check(len(claims) >= 1 and len(got) == len(claims), f"products: {len(got)} claims shown, {len(claims)} in the file")
    for (attrs, cells), (_, r) in zip(got, claims.iterrows()):
        unit = r["unit"]
        # The verdict weighs the claim against its true effect on the claim's own denominator (issue 39), shown first;
        # the true effect per person-day to the horizon beside it.
        same, low, high = rp.hp.claim_true_effect(r)
        words, _ = rp.claim_verdict(float(r["mean"]), low, high)
        check(cells[0] == r["arm"] and cells[2].startswith(rp.fmt(r["mean"], unit))
              and cells[3].startswith(rp.fmt(same, unit)) and rp.claim_basis_words(r) in cells[3]
              and cells[4].startswith(rp.fmt(r["true_effect"], unit)) and cells[5] == words
              and not pd.isna(r["true_effect_on_claim_basis"])
              and r["claim"] in cells[1] and attrs.get("data-arms") == f"{r['arm']} {r['none_arm']}",
              f"products: claim row {cells} for {dict(r)}")
    check(text.index('class="claims"') < text.index('data-chart="product-comparison"'),
          "products: the claims come after the chart")
    # Effect against cost: the products (none is the baseline), the effect = −(arm − none) of the effect KPI.
    effect = rp.hp.PRODUCTS_CHART["effect"]
    got = tables.body_rows("effect-cost-table")
    products = [a for a in dict.fromkeys(everyone["arm"]) if a != everyone["none_arm"].iloc[0]]
    check([cells[0] for _, cells in got] == products, f"products: effect rows {got}")
    for _, cells in got:
        r = everyone[(everyone["arm"] == cells[0]) & (everyone["kpi"] == effect["kpi"])].iloc[0]
        check(cells[1].startswith(rp.fmt(-float(r["vs_none_diff"]), r["unit"])),
              f"products: {cells[0]}'s effect {cells[1]!r}, the file says − {r['vs_none_diff']}")
    # Issue 29: a further effect (things done on time a day, where an arm's product names it: Nudge) in its own
    # column, arm − none signed, for every product that has the KPI.
    further = rp.hp.product_effects(everyone)[1:]
    check(len(further) == 1, f"products: further effects {further} for a run with a Nudge arm")
    for n, extra in enumerate(further, start=2):
        check(f"<th class=num>{rp.esc(extra['label'])}</th>" in text, f"products: no column for {extra['label']}")
        for _, cells in tables.body_rows("effect-cost-table"):
            r = everyone[(everyone["arm"] == cells[0]) & (everyone["kpi"] == extra["kpi"])].iloc[0]
            check(cells[n].startswith(rp.signed(float(r["vs_none_diff"]), r["unit"])),
                  f"products: {cells[0]}'s {extra['kpi']} effect {cells[n]!r}, the file says {r['vs_none_diff']}")
    # By persona: personas alphabetically (as the file), each with the arms; none's rows have no difference.
    got = tables.body_rows("products-persona-table")
    personas = [p for p in dict.fromkeys(csv["persona"]) if p != "all"]
    check(personas == sorted(personas) == ["student", "worker"], f"products: personas {personas}")
    check(len(got) == len(personas) * len(set(everyone["arm"])) and [cells[0] for _, cells in got if cells[0]] == personas,
          f"products: persona rows {[(a.get('data-arm'), c[:2]) for a, c in got]}")
    # The headline names each product's effect against none on the same people.
    check("against none on the same people" in text and "claims median time saved per day" in text,
          "products: no products headline")
    # Learning shows target-app minutes by status, untreated after the tenure ended (tenure_days 14).
    got = tables.body_rows("learning-minutes-table")
    check(got and "people without the app" in text, "products: no target-app minutes by status")


def check_none_page(work: Path) -> None:
    """A run of none (no app) writes kpis.csv, learning.csv, world-check.csv and manifest.json: its page has those
    sections and no other, the KPI table equal to kpis.csv, the learning minutes of people without the app."""
    run = work / "none"
    shutil.copytree(habitat_runs.none_run(work / "made"), run)
    path = rp.write_page(run, STUB_PLOTLY)
    page, tables = parse(path), tables_of(path)
    check(page.headings == ["What was run", "KPIs against their targets", "The world check", "Learning, week by week"],
          f"none: sections {page.headings}")
    check(sorted(page.chart_ids) == ["learning", "world-check"], f"none: charts {page.chart_ids}")
    check_kpi_table("none", run, page)
    check("no KPI targets" in headline_of(path), f"none: headline {headline_of(path)!r}")
    rows = tables.body_rows("learning-minutes-table")
    check(rows and all(len(cells) == 3 for _, cells in rows), f"none: learning minutes {rows[:2]}")
    check(not page.has_selector, "none: an arm selector with one arm")


def check_malformed_products(work: Path) -> None:
    """A product-comparison.csv not as the specification describes it is refused, naming the file and the fault;
    the page is not written."""
    base = work / "products"
    cases = [("no-column", lambda text: "\n".join(",".join(c for i, c in enumerate(line.split(","))
                                                          if i != 20) for line in text.splitlines()),
              "missing column true_effect"),
             ("word", lambda text: "\n".join(",".join("lots" if (n == 1 and i == 8) else c
                                                       for i, c in enumerate(line.split(",")))
                                              for n, line in enumerate(text.splitlines())), "column mean holds"),
             ("empty", lambda text: "", "product-comparison.csv: empty")]
    for name, change, words in cases:
        run = work / f"malformed-{name}"
        shutil.copytree(base, run)
        (run / "report.html").unlink(missing_ok=True)
        csv = run / "product-comparison.csv"
        csv.write_text(change(csv.read_text(encoding="utf-8")), encoding="utf-8")
        refused(lambda: rp.write_page(run, STUB_PLOTLY), words, f"malformed product-comparison.csv ({name})")
        check(not (run / "report.html").exists(), f"malformed ({name}): a page was written")
    # The word in a number's place is named with its column, value and line.
    run = work / "malformed-word"
    try:
        rp.write_page(run, STUB_PLOTLY)
    except rp.PageError as e:
        check("product-comparison.csv: column mean holds 'lots' on line 2 — not a number" in str(e), f"word: {e}")


# --- Hostile input (issue 30): one `report_page:` line naming the file, exit 2, no traceback, nothing written ------


def tree(root: Path) -> dict[str, str]:
    """{relative path: sha256 | 'dir' | 'link->…' | 'other'} of everything under root (links not followed)."""
    import hashlib
    import stat as st_
    out = {}
    for p in sorted(root.rglob("*")) + [root]:
        mode = p.lstat().st_mode
        rel = str(p.relative_to(root))
        if st_.S_ISLNK(mode):
            out[rel] = "link->" + str(p.readlink())
        elif st_.S_ISDIR(mode):
            out[rel] = "dir"
        elif st_.S_ISREG(mode):
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
        else:
            out[rel] = "other"
    return out


def refused_whole(target: Path, names: list[str], what: str, watch: Path | None = None) -> None:
    """`write_pages([target])` (what main runs) returns 2, says one `report_page:` line on stderr naming one of
    `names`, raises nothing (no traceback), and leaves `watch` (default: the target's folder) exactly as it was — no
    page, no temporary file, nothing of the user's changed."""
    import contextlib
    import io
    watch = watch or (target if target.is_dir() and not target.is_symlink() else target.parent)
    before = tree(watch) if watch.exists() else {}
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = rp.write_pages([str(target)], STUB_PLOTLY)
    except BaseException as e:   # noqa: BLE001 — any exception is a traceback to the user
        FAILURES.append(f"{what}: raised {type(e).__name__}: {str(e)[:200]}")
        return
    lines = [line for line in err.getvalue().splitlines() if line.strip()]
    check(status == 2, f"{what}: exit {status}, expected 2 ({lines[:1]})")
    check(len(lines) == 1 and lines[0].startswith("report_page: ") and any(n in lines[0] for n in names)
          and len(lines[0]) < 400, f"{what}: stderr {lines!r}, expected one report_page: line naming {names}")
    after = tree(watch) if watch.exists() else {}
    check(before == after, f"{what}: changed {sorted(set(before.items()) ^ set(after.items()))[:4]}")


def damaged(text: str, how: str, numbers: str | None = None, boolean: str | None = None) -> bytes:
    """A CSV's text damaged one way (see HOSTILE_CSV)."""
    lines = text.split("\n")
    head = lines[0].split(",")

    def cell(column, value):
        row = lines[1].split(",")
        row[head.index(column)] = value
        return "\n".join([lines[0], ",".join(row)] + lines[2:])
    row = lines[1].split(",")
    return {
        "empty": lambda: b"",
        "blank": lambda: b"\n \n",
        "header-only": lambda: (lines[0] + "\n").encode(),
        "nul": lambda: b"\0\0" + text.encode(),
        "gzip": lambda: __import__("gzip").compress(text.encode()),
        "unclosed-quote": lambda: "\n".join([lines[0], '"' + lines[1]] + lines[2:]).encode(),
        "stray-quote": lambda: "\n".join([lines[0], row[0][:1] + '"' + ",".join(row)[1:]] + lines[2:]).encode(),
        "latin1": lambda: text.replace("\n", "\ncaf\udce9", 1).encode("utf-8", "surrogateescape"),
        "other-columns": lambda: b"a,b,c\n1,2,3\n",
        "row-long": lambda: "\n".join([lines[0], lines[1] + ",1"] + lines[2:]).encode(),
        "word": lambda: cell(numbers, "lots").encode(),
        "nan": lambda: cell(numbers, "NaN").encode(),
        "inf": lambda: cell(numbers, "inf").encode(),
        "1e400": lambda: cell(numbers, "1e400").encode(),
        "huge": lambda: cell(numbers, "9" * 40).encode(),
        "boolean": lambda: cell(boolean, "maybe").encode(),
    }[how]()


# Each class of damage, with what the one line must say.
HOSTILE_CSV = ["empty", "blank", "header-only", "nul", "gzip", "unclosed-quote", "stray-quote", "latin1",
               "other-columns", "row-long", "word", "nan", "inf", "1e400", "huge", "boolean"]
NEEDS_ROWS = {"kpis.csv", "world-check.csv"}   # a header-only copy of another file is a run without such rows


def numeric_column(name: str) -> str | None:
    entry = rp.spec.by_name()[name]
    return next((c["name"] for c in entry["columns"] if c["unit"] not in ("text", "boolean", "month")), None)


def boolean_column(name: str) -> str | None:
    entry = rp.spec.by_name()[name]
    return next((c["name"] for c in entry["columns"] if c["unit"] == "boolean"), None)


def check_hostile_run_files(work: Path) -> None:
    """Every CSV a run holds (premium-price-test: every file but the products' own), damaged each way."""
    base = work / "hostile-base"
    shutil.copytree(BASELINES / "premium-price-test", base)
    n = 0
    for csv in sorted(base.glob("*.csv")):
        text = csv.read_text(encoding="utf-8")
        for how in HOSTILE_CSV:
            if how == "header-only" and csv.name not in NEEDS_ROWS:
                continue
            if how == "boolean" and boolean_column(csv.name) is None:
                continue
            n += 1
            run = work / f"hostile-{n:03d}"
            shutil.copytree(base, run)
            (run / csv.name).write_bytes(damaged(text, how, numeric_column(csv.name), boolean_column(csv.name)))
            refused_whole(run, [csv.name], f"{csv.name} {how}")
        for how in ["folder", "fifo", "dangling-link"]:
            n += 1
            run = work / f"hostile-{n:03d}"
            shutil.copytree(base, run)
            (run / csv.name).unlink()
            {"folder": lambda p: p.mkdir(), "fifo": lambda p: os.mkfifo(p),
             "dangling-link": lambda p: p.symlink_to(p.parent / "nowhere.csv")}[how](run / csv.name)
            refused_whole(run, [csv.name], f"{csv.name} {how}")
    # A header-only file where a run may write no rows (no money moved): a page, not a refusal.
    run = work / "hostile-revenue-header"
    shutil.copytree(base, run)
    (run / "revenue.csv").write_text((run / "revenue.csv").read_text(encoding="utf-8").split("\n")[0] + "\n",
                                     encoding="utf-8")
    check(rp.write_page(run, STUB_PLOTLY).is_file(), "a header-only revenue.csv: no page")


def check_hostile_manifest(work: Path) -> None:
    base = work / "hostile-base"
    cases = {"empty": b"", "not-json": b'{"seed": ', "a-list": b"[1]", "a-string": b'"x"', "null": b"null",
             "latin1": b'{"scenario_name": "caf\xe9"}', "nul": b'{"a": 1}\0',
             "wrong-types": b'{"scenario_name": 7}', "text-for-number": b'{"seed": "x"}',
             "list-for-number": b'{"replications": [1]}', "text-for-seconds": b'{"wall_seconds": "fast"}',
             "scenario-not-text": b'{"resolved_scenario": 5}', "negative": b'{"person_days": -1}',
             "boolean": b'{"replications": true}', "deep": b"[" * 100000 + b"]" * 100000,
             "long-digits": b'{"person_days": 1' + b"0" * 5000 + b"}"}
    for how, data in cases.items():
        run = work / f"hostile-manifest-{how}"
        shutil.copytree(base, run)
        (run / "manifest.json").write_bytes(data)
        refused_whole(run, ["manifest.json"], f"manifest.json {how}")
    run = work / "hostile-manifest-folder"
    shutil.copytree(base, run)
    (run / "manifest.json").unlink()
    (run / "manifest.json").mkdir()
    refused_whole(run, ["manifest.json"], "manifest.json a folder")
    # Missing keys, or no manifest at all (runs written before it): the facts read —, the page is written.
    for how, data in {"no-keys": b"{}", "missing": None}.items():
        run = work / f"hostile-manifest-{how}"
        shutil.copytree(base, run)
        (run / "manifest.json").unlink()
        if data is not None:
            (run / "manifest.json").write_bytes(data)
        check(rp.write_page(run, STUB_PLOTLY).is_file(), f"manifest.json {how}: no page")


def check_hostile_targets(work: Path) -> None:
    """A run folder that does not exist or is a file, a path under a file; a destination that cannot be written."""
    (work / "hostile-a-file").write_text("not a run\n", encoding="utf-8")
    refused_whole(work / "hostile-no-such-run", ["hostile-no-such-run"], "a run folder that does not exist", work)
    refused_whole(work / "hostile-a-file", ["hostile-a-file"], "a file for a run folder", work)
    refused_whole(work / "hostile-a-file" / "run", ["hostile-a-file/run"], "a path under a file", work)
    # A page that cannot be written: writes fail past 1 MB (a disk that fills mid-page), in a process of its own
    # with the file-size limit (SIGXFSZ ignored: the write fails with EFBIG).
    import subprocess
    run = work / "hostile-full"
    shutil.copytree(work / "hostile-base", run)
    before = tree(run)
    done = subprocess.run(["/bin/sh", "-c", 'trap "" XFSZ; ulimit -f 1024; exec "$@"', "sh", sys.executable,
                           str(HERE / "report_page.py"), str(run)], capture_output=True, text=True, timeout=120)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    check(done.returncode == 2 and len(lines) == 1 and lines[0].startswith(f"report_page: {run / 'report.html'}: "
                                                                           "cannot be written"),
          f"a disk that fills: exit {done.returncode}, stderr {done.stderr[-300:]!r}")
    check(tree(run) == before, f"a disk that fills: left {sorted(set(tree(run)) - set(before))}")
    # A read-only folder (chattr +i where it works, as root; mode 0555 otherwise).
    import os as os_
    run = work / "hostile-readonly"
    shutil.copytree(work / "hostile-base", run)
    locked = False
    if os_.geteuid() != 0:
        run.chmod(0o555)
        locked = True
    elif shutil.which("chattr"):
        locked = subprocess.run(["chattr", "+i", str(run)], capture_output=True).returncode == 0
    if locked:
        try:
            refused_whole(run, ["report.html"], "a read-only run folder")
        finally:
            if os_.geteuid() == 0:
                subprocess.run(["chattr", "-i", str(run)], capture_output=True)
            run.chmod(0o755)
    else:
        print("test_report_page: a read-only folder not checked (root, and chattr +i does not work here)",
              file=sys.stderr)


def check_hostile_comparisons(work: Path) -> None:
    """A comparison CSV (habitat compare --out) and a check CSV (habitat check --out, its extra columns made by
    hand from the comparison's) damaged the same ways."""
    compare = (BASELINES / "premium-price-test" / "experiment.csv").read_text(encoding="utf-8")
    lines = compare.rstrip("\n").split("\n")
    check_csv = "\n".join([lines[0] + ",tolerance,beyond_tolerance,check"]
                          + [line + ",0.01,false,statistical" for line in lines[1:]]) + "\n"
    originals = {"comparison.csv": compare, "check.csv": check_csv}
    for name, text in originals.items():
        good = work / f"hostile-good-{name}"
        good.write_text(text, encoding="utf-8")
        check(rp.write_page(good, STUB_PLOTLY).is_file(), f"{name}: the undamaged file has no page")
    n = 0
    for name, text in originals.items():
        for how in HOSTILE_CSV:
            n += 1
            folder = work / f"hostile-cmp-{n:03d}"
            folder.mkdir()
            csv = folder / name
            csv.write_bytes(damaged(text, how, "diff", "beyond_tolerance" if name == "check.csv" else None)
                            if how != "boolean" or name == "check.csv" else damaged(text, "word", "pairs"))
            refused_whole(csv, [name], f"{name} {how}")
    # Its page's place taken by a folder, or by someone else's file.
    folder = work / "hostile-cmp-dest"
    folder.mkdir()
    (folder / "comparison.csv").write_text(compare, encoding="utf-8")
    (folder / "comparison.html").mkdir()
    refused_whole(folder / "comparison.csv", ["comparison.html"], "a folder where the comparison's page goes")
    (folder / "comparison.html").rmdir()
    (folder / "comparison.html").write_text("<p>mine</p>", encoding="utf-8")
    refused_whole(folder / "comparison.csv", ["comparison.html"], "someone else's comparison.html")


def main() -> int:
    check_formatting()
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        for name in ["scroll-off-baseline", "premium-price-test", "launch-forecast-12m", "earned-access-baseline"]:
            check_run_page(name, work)
        check_refusals(work)
        check_comparison_page(work)
        check_headline_retention(work)
        check_decisions(work)
        check_learning(work)
        check_kpi_applies(work)
        check_hostile_run_files(work)
        check_hostile_manifest(work)
        check_hostile_targets(work)
        check_hostile_comparisons(work)
        try:
            check_products_page(work)
            check_malformed_products(work)
            check_none_page(work)
            check_study_page(work)
            check_clavis_page(work)
        except habitat_runs.RunUnavailable as e:
            FAILURES.append(f"issue-28 pages not checked: {e}")
    for f in FAILURES:
        print(f"test_report_page: FAIL {f}", file=sys.stderr)
    if FAILURES:
        return 1
    print("test_report_page: formatting, KPI table = kpis.csv, sections, self-contained, overwrite safety, "
          "refusals, comparison page, headline retention readings, decisions table, learning table, KPI applies, "
          "products compared (section, tables, malformed file), a run of none, Lazuri's user study histogram, Clavis's sections and trade-off scatter, hostile input (every CSV, the manifest, "
          "the target, the destination, comparison and check CSVs: exit 2, one line, nothing written): all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
