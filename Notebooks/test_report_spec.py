#!/usr/bin/env python3
"""Checks that the report specification (docs/report-spec.json) is the one description every Python consumer reads:

- the specification holds together: unique files and keys, every unit known, every target and chart naming columns
  its file has, every chart on exactly one section of the page, every section's files known; docs/CONTRACT.md's
  table lists each file with the same columns;
- no consumer keeps a registry of its own: habitat_plots (PNGs, notebooks) and habitat_charts (the page) draw exactly
  the specification's charts — every function that draws a figure from a run's tables is one of them, each chart has
  one —, report_page has a table for every section, plot_run writes a PNG for every chart a run has data for and says
  why it skips the others, run_notebooks names only reports the specification knows; and no consumer's code names a
  report file, a product or a KPI (string constants outside docstrings);
- a target is drawn only where the run's own file carries it, whatever the product: funnel step targets, retention
  targets from kpis.csv, the token-share ceiling, battery budgets; no forecast target line (no file carries one);
- a money column added to revenue.csv is one change, to the specification: the page and the PNG then show it;
- the generic `histogram` kind (Lazuri's study chart) counts replications per value on the page, in the PNG and in
  the table from a hand-made study.csv, leaves out the pooled rows, and says a histogram needs many replications
  when there are few;
- the generic `scatter` kind (issue 44: Clavis's trade-off curve) is accepted in a fragment and draws a point per arm
  at the means over replications with 95 % error bars both ways on the page, in the PNG and in the table from a
  hand-made scan-policy.csv, leaving out the pooled rows;
- the page and the PNGs are written with the CSVs' mode (0644 under umask 022; 0o644 & ~umask in general);
- issue 28: a run whose arms are different products and a run of none write exactly the files the specification
  says for their shape, get the sections and charts (page and PNG) their files have data for, and run_notebooks
  draws each notebook on the runs that write its reports (08 only on the products run).

Runs on copies of the committed baselines (Reports/baselines/*), some CSVs edited in the copy, and on two runs made
with the habitat binary (habitat_runs.py: $HABITAT, else .build/debug/habitat).
"""
from __future__ import annotations

import ast
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import matplotlib.figure  # noqa: E402
import pandas as pd  # noqa: E402
import plotly.graph_objects as go  # noqa: E402

import habitat_charts as hc  # noqa: E402
import habitat_plots as hp  # noqa: E402
import report_page as rp  # noqa: E402
import habitat_runs  # noqa: E402
import report_spec as spec  # noqa: E402

BASELINES = HERE.parent / "Reports" / "baselines"
RUNS = ["scroll-off-baseline", "premium-price-test", "launch-forecast-12m", "earned-access-baseline"]
# Issue 28: runs no baseline is — arms that are different products (product-comparison.csv) and none, no app — made
# with the habitat binary (habitat_runs.py) into the test's folder; Nudge alone; Clavis with two arms of its match
# policy (issue 44).
MADE = {"products": habitat_runs.products_run, "none": habitat_runs.none_run, "nudge": habitat_runs.nudge_run,
        "clavis": habitat_runs.clavis_run,
        # Issue 45: a run with --robustness over three worlds of the shipped plausible set.
        "robustness": habitat_runs.robustness_run}


def run_dirs(work: Path) -> dict[str, Path]:
    """Every run the checks read: the committed baselines and the runs made for issue 28 (a made run that cannot be
    made is a failure, named)."""
    dirs = {name: BASELINES / name for name in RUNS}
    for name, make in MADE.items():
        try:
            dirs[name] = make(work / "made")
        except habitat_runs.RunUnavailable as e:
            FAILURES.append(f"the {name} run could not be made: {e}")
    return dirs
CONSUMERS = ["habitat_plots.py", "habitat_charts.py", "report_page.py", "plot_run.py", "run_notebooks.py",
             "browser_check.py"]
FAILURES: list[str] = []
STUB_PLOTLY = "/* plotly.js stands here */"


def check(condition: bool, message: str) -> None:
    if not condition:
        FAILURES.append(message)


# --- The specification holds together --------------------------------------------------------------------------


def check_spec_is_consistent() -> None:
    files = spec.files()
    names = [f["file"] for f in files]
    keys = [f["key"] for f in files]
    check(len(set(names)) == len(names) and len(set(keys)) == len(keys), f"duplicate files or keys: {names} {keys}")
    units = set(spec.spec()["units"])
    key_names = [c["name"] for c in spec.spec()["key_columns"]]
    for f in files:
        columns = {c["name"]: c for c in f["columns"]}
        check(len(columns) == len(f["columns"]), f"{f['file']}: a column listed twice")
        check(f["written"] in spec.spec()["written_when"], f"{f['file']}: written {f['written']!r} is not described")
        check(f["products"] in ("all", "with_app", "with_money") or (isinstance(f["products"], list) and len(f["products"]) == 1),
              f"{f['file']}: products must be \"all\", \"with_app\", \"with_money\" or the one product of a fragment")
        for group in f.get("conditional_columns", []):   # issue 45: columns written only when a condition holds
            check(group["written"] in spec.spec()["written_when"],
                  f"{f['file']}: conditional columns written {group['written']!r}, not a condition of written_when")
            check(not {c["name"] for c in group["columns"]} & set(columns),
                  f"{f['file']}: a conditional column is also a usual one")
        for c in f["columns"] + spec.conditional_columns(f):
            check(bool(c.get("meaning")), f"{f['file']}: {c['name']} has no meaning")
            unit = c.get("unit")
            if isinstance(unit, dict):
                ref = unit.get("column") or unit.get("value_of")
                check(ref in columns, f"{f['file']}: {c['name']}'s unit refers to {ref}, not a column of the file")
                if "value_of" in unit:
                    check(all(v.get("unit") in units for v in columns[ref].get("values", [])),
                          f"{f['file']}: {ref}'s values need a known unit each")
            else:
                check(unit in units, f"{f['file']}: {c['name']} has unit {unit!r}, not one of the units")
        targets = f.get("targets")
        if targets:
            source = f if targets["source"] == "columns" else spec.by_name().get(targets["source"])
            check(source is not None, f"{f['file']}: targets from {targets['source']}, not a file of the specification")
            if source:
                source_columns = {c["name"] for c in source["columns"]}
                for role in ("min", "max", "met"):
                    if role in targets:
                        check(targets[role] in source_columns, f"{f['file']}: target {role} {targets[role]} is not a "
                                                               f"column of {source['file']}")
            check(targets.get("measure") in columns, f"{f['file']}: targets measure {targets.get('measure')}")
        for chart in f.get("charts", []):
            for field in ("x", "y", "group"):
                wanted = chart[field] if isinstance(chart[field], list) else [chart[field]]
                for name in wanted:
                    check(name in columns or name in key_names, f"chart {chart['id']}: {field} {name} is not a column "
                                                               f"of {f['file']}")
    chart_ids = [c["id"] for c in spec.charts()]
    check(len(set(chart_ids)) == len(chart_ids), f"duplicate chart ids {chart_ids}")
    placed = [c for s in spec.sections() for c in s.get("charts", [])]
    check(sorted(placed) == sorted(chart_ids), f"charts on the page {sorted(placed)} ≠ the charts {sorted(chart_ids)}")
    for s in spec.sections():
        for name in s["files"]:
            check(name in spec.by_name() or name == "manifest.json", f"section {s['id']}: unknown file {name}")
    described = {f["file"] for s in spec.sections() for f in [spec.by_name().get(n, {"file": n}) for n in s["files"]]}
    check(set(names) <= described, f"files no section of the page reads: {set(names) - described}")
    kinds = set(spec.spec()["kinds"]) - {"about"}
    for f in files:
        for c in f["columns"]:
            check(c.get("kind") is None or c["kind"] in kinds, f"{f['file']}: {c['name']} has kind {c.get('kind')!r}")
        for interval in f.get("intervals", []):
            check(all(interval[k] in {c["name"] for c in f["columns"]} for k in ("estimate", "low", "high")),
                  f"{f['file']}: interval {interval} names a column the file does not have")
    for o in spec.spec()["outputs"]:
        if "columns_of" in o:
            check(o["columns_of"] in spec.by_name(), f"output {o['id']}: columns of an unknown file")
        else:   # issue 40: an output with its own columns (traces, calibration and benchmark files)
            check(bool(o.get("file") or o.get("file_pattern")), f"output {o['id']}: no file or file_pattern")
            described = o.get("columns", []) + o.get("product_column_meanings", [])
            names = {c["name"] for c in described}
            for c in described:
                unit = c.get("unit")
                known = unit in units if isinstance(unit, str) else (isinstance(unit, dict) and unit.get("column") in names)
                check(bool(c.get("meaning")) and known, f"output {o['id']}: {c['name']} needs a meaning and a known unit "
                                                        "(or the unit of another of its columns)")
            for chart in o.get("charts", []):   # issue 45: an output's chart (sensitivity.csv's tornado) is dedicated
                check(spec.spec()["chart_kinds"].get(chart["kind"], {}).get("renderer") == "dedicated",
                      f"output {o['id']}: chart {chart['id']} of kind {chart['kind']!r}, not a dedicated kind")
                check(chart["x"] in names and chart["y"] in names and chart["group"] in names,
                      f"output {o['id']}: chart {chart['id']} names columns the output lacks")
            names = {c["name"] for c in described}
            for product, columns in o.get("product_columns", {}).items():
                check(set(columns) <= names, f"output {o['id']}: {product}'s columns {set(columns) - names} are not described")
    for other in spec.spec().get("other_files", []):
        check(bool(other.get("file") and other.get("meaning")), f"other file {other}: needs a file and a meaning")


def check_contract_agrees() -> None:
    """docs/CONTRACT.md's table of output files (the specification's prose) lists each file with its columns."""
    import re
    rows = {}
    for line in (HERE.parent / "docs" / "CONTRACT.md").read_text(encoding="utf-8").splitlines():
        found = re.match(r"\| `([\w.-]+\.csv)`[^|]*\| `([^`]+)`", line)
        if found and found.group(1) not in rows:
            rows[found.group(1)] = found.group(2).split(",")
    for f in spec.files():
        own = [c["name"] for c in f["columns"]]
        check(rows.get(f["file"]) == own, f"docs/CONTRACT.md lists {f['file']} with {rows.get(f['file'])}, the "
                                          f"specification with {own}")


# --- No consumer keeps a registry -------------------------------------------------------------------------------


def figure_functions(module, tables: dict, kind, known: dict | None = None) -> set[str]:
    """Public functions of `module` defined there that, called with a run's tables alone, return a `kind` figure.
    `known`: results already drawn from these tables, by function name (the dedicated charts'), not drawn again."""
    found = set()
    for name, fn in vars(module).items():
        if name.startswith("_") or not callable(fn) or getattr(fn, "__module__", None) != module.__name__:
            continue
        if known is not None and name in known:
            if isinstance(known[name], kind):
                found.add(name)
            continue
        try:
            import inspect
            params = [p for p in inspect.signature(fn).parameters.values() if p.default is p.empty]
        except (TypeError, ValueError):
            continue
        if len(params) != 1 or params[0].name != "t":
            continue
        try:
            result = fn(tables)
        except Exception:   # noqa: BLE001 — a function that cannot take these tables is not a chart of them
            continue
        if isinstance(result, kind):
            found.add(name)
    return found


def check_consumers_draw_the_spec(work: Path) -> None:
    chart_ids = [c["id"] for c in spec.charts()]
    check([name for name, _ in hp.ALL] == chart_ids, f"habitat_plots.ALL {[n for n, _ in hp.ALL]} ≠ {chart_ids}")
    check([name for name, _ in hc.CHARTS] == chart_ids, f"habitat_charts.CHARTS {[n for n, _ in hc.CHARTS]} ≠ {chart_ids}")
    # Issue 42: a chart of a generic kind is drawn by its kind's function (lines, bars: two parameters, the tables and
    # the chart's entry); a dedicated kind by the function of its name (one parameter, the tables).
    expected = {spec.function_name(c["kind"]) for c in spec.charts()
                if spec.spec()["chart_kinds"][c["kind"]]["renderer"] == "dedicated"}
    drawn_png, drawn_page = set(), set()
    # Each chart is drawn once per run and tool: which charts have data (the PNGs plot_run must write, the charts the
    # page must hold) and, for the dedicated kinds, their functions' results, which figure_functions does not redraw.
    png_data, page_data = {}, {}
    runs = run_dirs(work)
    dedicated = [c for c in spec.charts() if spec.spec()["chart_kinds"][c["kind"]]["renderer"] == "dedicated"]
    for name, path in runs.items():
        tables = hp.load_run(path)
        png = {c["id"]: hp.renderer(c)(tables) for c in spec.charts()}
        page = {c["id"]: hc.renderer(c)(tables) for c in spec.charts()}
        png_data[name] = {i for i, figure in png.items() if figure is not None}
        page_data[name] = {i for i, figure in page.items() if figure is not None}
        drawn_png |= figure_functions(hp, tables, matplotlib.figure.Figure,
                                      known={spec.function_name(c["kind"]): png[c["id"]] for c in dedicated})
        drawn_page |= figure_functions(hc, tables, go.Figure,
                                       known={spec.function_name(c["kind"]): page[c["id"]] for c in dedicated})
        del png, page
        hp.plt.close("all")
        hp.FIGURES.clear()
    check(drawn_png <= expected, f"habitat_plots draws figures the specification does not list: {drawn_png - expected}")
    check(drawn_page <= expected, f"habitat_charts draws charts the specification does not list: {drawn_page - expected}")
    check(expected <= drawn_png, f"charts of the specification habitat_plots drew for no baseline: {expected - drawn_png}")
    check(expected <= drawn_page, f"charts of the specification habitat_charts drew for no baseline: {expected - drawn_page}")
    for s in spec.sections():
        check(callable(getattr(rp, f"{spec.function_name(s['id'])}_table", None))
              or all(spec.spec()["chart_kinds"][spec.chart(c)["kind"]]["renderer"] == "generic" for c in s.get("charts", [])),
              f"report_page has no table for section {s['id']} (nor are its charts all of generic kinds)")
    # Each run's page has every section whose file the run holds and every chart it has data for; plot_run writes a
    # PNG for every chart with data and names the reason for each other.
    for name, path in runs.items():
        run = work / f"draw-{name}"
        shutil.copytree(path, run)
        tables = hp.load_run(run)
        with_data = [c for c in spec.charts() if c["id"] in page_data[name]]
        text = rp.write_page(run, STUB_PLOTLY).read_text(encoding="utf-8")
        for c in with_data:
            check(f'data-chart="{c["id"]}"' in text, f"{name}: the page lacks the {c['id']} chart")
        for s in spec.sections():
            first = s["files"][0]
            if first == "manifest.json" or (run / first).is_file():
                table = rp.section_table(tables, s)
                if table or any(c["id"] in s.get("charts", []) for c in with_data):   # something to show
                    check(f'<section id="{s["id"]}">' in text, f"{name}: the page lacks the {s['id']} section")
            else:
                check(f'<section id="{s["id"]}">' not in text, f"{name}: a {s['id']} section without {first}")
        out = work / f"png-{name}"
        done = subprocess.run([sys.executable, str(HERE / "plot_run.py"), str(run), "--out", str(out)],
                              capture_output=True, text=True)
        check(done.returncode == 0, f"plot_run on {name}: exit {done.returncode}: {done.stderr}")
        pngs = {p.stem for p in out.glob("*.png")}
        hp.plt.close("all")
        check(pngs == png_data[name], f"plot_run on {name}: PNGs {sorted(pngs)}, charts with data {sorted(png_data[name])}")
        for c in spec.charts():
            if c["id"] not in png_data[name]:
                check(f"  {c['id']}: " in done.stdout and "(skipped)" in done.stdout,
                      f"plot_run on {name}: no note for the skipped {c['id']}")


def constants(path: Path) -> list[tuple[int, str]]:
    """The string constants of a Python file, docstrings left out (f-strings' literal parts included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                docstrings.add(id(first.value))
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


def check_no_private_registry() -> None:
    """No consumer's code names a report file (a string that is a file name: a key, a path, a comparison), a product
    or a KPI of the specification (as a word anywhere, titles included): those are the specification's."""
    import re
    products = sorted({p for f in spec.files() if isinstance(f["products"], list) for p in f["products"]})
    kpis = sorted({r["kpi"] for f in spec.files() for r in (f.get("targets") or {}).get("rows", [])}
                  | {k["kpi"] for k in spec.headline_kpis()}
                  | {c["kpi"] for chart in spec.charts()
                     for c in [chart.get("effect"), *chart.get("further_effects", []), *chart.get("costs", [])] if c})
    files = {f["file"] for f in spec.files()}
    check(products and kpis, "the specification names no product-specific file or KPI: nothing to look for")
    words = [(w, re.compile(rf"(?<![\w-]){re.escape(w)}(?![\w-])")) for w in products + kpis]
    for consumer in CONSUMERS:
        for line, text in constants(HERE / consumer):
            if text in files:
                FAILURES.append(f"{consumer}:{line}: names the file {text!r}; read it from the specification")
            for word, pattern in words:
                if pattern.search(text):
                    FAILURES.append(f"{consumer}:{line}: names {word!r} ({text[:60]!r}); read it from the specification")


# --- Which runs write which files, and which notebooks draw them (issue 28) ---------------------------------------


def check_runs_and_notebooks(work: Path) -> None:
    """The files each run writes are the specification's for its shape (products of its arms, arms, acquisition):
    product-comparison.csv only for runs whose arms are different products, a run of none only the neutral files;
    and run_notebooks draws each notebook on the runs that write the reports it names — 08 only the products run,
    07 the runs with an Earned Access arm, 09 those with a Nudge arm, 10 the Clavis run, 01/02/04 no run of none."""
    import nbformat
    import run_notebooks
    runs = run_dirs(work)
    for name, path in runs.items():
        shape = hp.run_shape(path)
        conditions = hp.run_conditions(path)   # issue 45: a run with --robustness
        expected = {f["file"] for f in spec.files() if spec.run_writes(f, *shape, "robustness" in conditions)}
        held = {p.name for p in path.glob("*.csv")}
        check(held == expected, f"{name} {shape}: holds {sorted(held)}, the specification says {sorted(expected)}")
        if name in MADE:   # fresh from the binary (the Swift tests write no run of several products): exact headers
            for csv in sorted(held & expected):
                with open(path / csv, encoding="utf-8") as f:
                    header = f.readline().rstrip("\r\n").split(",")
                described = spec.header(spec.by_name()[csv], conditions)
                check(header == described, f"{name}: {csv}'s header {header}, the specification's {described}")
    drawn = {}
    for nb in sorted(HERE.glob("*.ipynb")):
        wanted = run_notebooks.notebook_reports(nbformat.read(nb, as_version=4))
        drawn[nb.name[:2]] = {name for name, path in runs.items() if run_notebooks.draws(wanted, hp.run_shape(path))}
    if set(MADE) <= set(runs):
        everything = set(runs)
        check(drawn.get("08") == {"products"}, f"08 draws {drawn.get('08')}, expected the products run only")
        check(drawn.get("07") == {"earned-access-baseline", "products"}, f"07 draws {drawn.get('07')}")
        check(drawn.get("03") == everything - {"earned-access-baseline", "none", "nudge", "clavis"},
              f"03 draws {drawn.get('03')}")
        check(drawn.get("09") == {"nudge", "products"}, f"09 draws {drawn.get('09')}, expected the Nudge runs")
        check(drawn.get("10") == {"clavis"}, f"10 draws {drawn.get('10')}, expected the Clavis run")
        for n in ("01", "02", "04"):
            check(drawn.get(n) == everything - {"none"}, f"{n} draws {drawn.get(n)}, expected every run but none's")
        for n in ("05", "06"):
            check(drawn.get(n) == everything, f"{n} draws {drawn.get(n)}, expected every run")
    check(spec.expected_files("scroll-off", 3, True) == spec.expected_files("scroll-off", 3, True)
          - {"product-comparison.csv"}, "a run of one product expects product-comparison.csv")


# --- Targets only where the run's files carry them --------------------------------------------------------------


def edit_csv(path: Path, change) -> None:
    """Applies `change` to a CSV read as text (every cell a string) and writes it back the way Habitat does."""
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    change(df).to_csv(path, index=False, lineterminator="\r\n")


def trace_names(fig) -> list[str]:
    return [t.name or "" for t in fig.data]


def check_targets_from_files(work: Path) -> None:
    # Funnel: Earned Access's file carries no step target (seed 003 sets none): none drawn, none in the table.
    ea = work / "targets-ea"
    shutil.copytree(BASELINES / "earned-access-baseline", ea)
    t = hp.load_run(ea)
    check(not any("step target" in n for n in trace_names(hc.funnel(t))), "EA funnel: a step target drawn from nowhere")
    check(not any("step target" in x.get_text() for x in hp.funnel(t).axes[0].get_legend().get_texts()),
          "EA funnel PNG: a step target drawn from nowhere")
    check(hp.retention_targets(t) == [], f"EA retention: targets {hp.retention_targets(t)} though its kpis.csv has none")
    # The same product with targets in its file: drawn, in the chart, the PNG and the table.
    edit_csv(ea / "activation-funnel.csv", lambda df: df.assign(target_min=df["stage_order"].map(
        lambda o: "" if o == "1" else "0.5000")))
    edit_csv(ea / "kpis.csv", lambda df: pd.concat([df, df.iloc[[0]].assign(
        kpi="d1_retention", unit="fraction", replication="all", target_min="0.4400", target_max="", meets_target="")]))
    t = hp.load_run(ea)
    check(any("step target" in n for n in trace_names(hc.funnel(t))), "EA funnel with targets in its file: none drawn")
    check(any("step target" in x.get_text() for x in hp.funnel(t).axes[0].get_legend().get_texts()),
          "EA funnel PNG with targets in its file: none drawn")
    text = rp.write_page(ea, STUB_PLOTLY).read_text(encoding="utf-8")
    check("≥ 50.0 %" in text, "EA funnel table: the file's step target not shown")
    check(hp.retention_targets(t) == [(1, 0.44, "D1")], f"EA retention targets {hp.retention_targets(t)}")
    check(any(n.startswith("target (D1") for n in trace_names(hc.retention(t))), "EA retention: the kpis.csv target not drawn")

    # Scroll Off without targets in its files: no funnel marks, no retention marks, no token ceiling, no budgets.
    so = work / "targets-so"
    shutil.copytree(BASELINES / "launch-forecast-12m", so)
    t = hp.load_run(so)
    check(any("step target" in n for n in trace_names(hc.funnel(t))), "SO funnel: its file's targets not drawn")
    check(len(hp.retention_targets(t)) == 3, f"SO retention targets {hp.retention_targets(t)}")
    check(any(n.startswith(spec.label("tokens", "threshold")) for n in trace_names(hc.renderer(spec.chart("token-share"))(t) or go.Figure())),
          "SO token share: the file's ceiling not drawn")
    check(any(n == "budget" for n in trace_names(hc.battery(t))), "SO battery: the file's budgets not drawn")
    edit_csv(so / "activation-funnel.csv", lambda df: df.assign(target_min="", target_max="", meets_target=""))
    edit_csv(so / "kpis.csv", lambda df: df.assign(target_min="", target_max="", meets_target=""))
    edit_csv(so / "token-revenue-share.csv", lambda df: df.assign(threshold="", within_threshold=""))
    edit_csv(so / "battery-budget.csv", lambda df: df.assign(budget="", meets_budget=""))
    t = hp.load_run(so)
    check(not any("step target" in n for n in trace_names(hc.funnel(t))), "SO funnel without targets: drawn anyway")
    check(hp.retention_targets(t) == [], "SO retention without kpis.csv targets: marks anyway")
    check(not any(n.startswith("target (") for n in trace_names(hc.retention(t))), "SO retention: a mark anyway")
    tokens = hc.renderer(spec.chart("token-share"))(t)
    check(tokens is None or not any(n.startswith(spec.label("tokens", "threshold")) for n in trace_names(tokens)),
          "SO token share without a threshold: a ceiling anyway")
    check(not any(n == "budget" for n in trace_names(hc.battery(t))), "SO battery without budgets: drawn anyway")
    png = hp.battery(t)
    check(png is not None and not any("budget" in x.get_text() for ax in png.axes if ax.get_legend()
                                      for x in ax.get_legend().get_texts()), "SO battery PNG without budgets: drawn")
    # The forecast: no file carries a target, so no line but the data's, in the chart and the PNG.
    labels = {label for label, _ in hp.FORECAST_METRICS.values()}
    fig = hc.forecast(t)
    check(not fig.layout.shapes and all(a.text in labels for a in fig.layout.annotations),
          f"forecast: a line or note beyond the data: {fig.layout.shapes} {[a.text for a in fig.layout.annotations]}")
    png = hp.forecast(t)
    for ax in png.axes:
        for line in ax.get_lines():
            check(line.get_label() in labels, f"forecast PNG: a line {line.get_label()!r} that is not a forecast metric")
    hp.plt.close("all")


# --- A new column is one change: the specification's ---------------------------------------------------------


def check_new_money_column(work: Path) -> None:
    """A money column added to revenue.csv (say a tax) and described once in the specification shows on the page's
    revenue table and in the PNG's whole-run panel, with no consumer changed (issue 27 added `cost_usd` this way)."""
    run = work / "cost"
    shutil.copytree(BASELINES / "scroll-off-baseline", run)
    edit_csv(run / "revenue.csv", lambda df: df.assign(tax_usd="1.25"))
    columns = spec.by_key()["revenue"]["columns"]
    columns.append({"name": "tax_usd", "unit": "usd", "label": "sales tax", "meaning": "a tax the product remits"})
    try:
        text = rp.write_page(run, STUB_PLOTLY).read_text(encoding="utf-8")
        table = text[text.index('<table id="revenue-table"'):]
        table = table[:table.index("</table>")]
        head, first = table.split("</tr>")[:2]
        cells = first.split("<td")[1:]
        check("<th class=num>sales tax</th>" in head and len(cells) == 8 and "$" in cells[6],
              f"the page's revenue table lacks the new column: {head} {first}")
        fig = hp.revenue(hp.load_run(run))
        labels = [x.get_text() for x in fig.axes[1].get_xticklabels()]
        check(labels == ["gross", "refunds", "store fee", "net", "cost", "sales tax"], f"the PNG's money panel: {labels}")
    finally:
        columns.pop()
        hp.plt.close("all")


# --- File modes -------------------------------------------------------------------------------------------------


def check_modes(work: Path) -> None:
    run = work / "modes"
    shutil.copytree(BASELINES / "scroll-off-baseline", run)
    old = os.umask(0o022)
    try:
        os.chmod(run / "kpis.csv", 0o644)   # as the Swift writer makes it under umask 022
        page = rp.write_page(run, STUB_PLOTLY)
        mode = stat.S_IMODE(page.stat().st_mode)
        check(mode == stat.S_IMODE((run / "kpis.csv").stat().st_mode) == 0o644,
              f"report.html is {mode:o}, kpis.csv beside it {stat.S_IMODE((run / 'kpis.csv').stat().st_mode):o}")
        os.umask(0o027)   # the Swift writer then makes 0o644 & ~0o027 = 0640: so must the page, replaced or new
        page = rp.write_page(run, STUB_PLOTLY)
        check(stat.S_IMODE(page.stat().st_mode) == 0o640, f"report.html under umask 027 is "
                                                          f"{stat.S_IMODE(page.stat().st_mode):o}, not 640")
        comparison = work / "modes-comparison.csv"
        shutil.copy(BASELINES / "premium-price-test" / "experiment.csv", comparison)
        html_page = rp.write_page(comparison, STUB_PLOTLY)
        check(stat.S_IMODE(html_page.stat().st_mode) == 0o640, f"comparison page is {stat.S_IMODE(html_page.stat().st_mode):o}")
        import plot_run
        fig = hp.energy(hp.load_run(run))
        check(plot_run.save(fig, "energy", run) and stat.S_IMODE((run / "energy.png").stat().st_mode) == 0o640,
              "a PNG is not written with the CSVs' mode")
    finally:
        os.umask(old)
        hp.plt.close("all")


def check_conformance_checker(work: Path) -> None:
    """report_spec.check_folder (RedTeam/extra/spec.py's checker, issue 40) flags what it must: an undescribed file,
    a missing key column, a share interval outside 0…1, low above the estimate, NaN, a negative count, a joint fit's
    row labelled with another product; and passes a clean folder."""
    folder = work / "conformance"
    folder.mkdir()
    (folder / "manifest.json").write_text('{"tool": "habitat", "kind": "report"}')
    keys = "scenario,arm,replication,product,"
    kpi = keys + ",".join(c["name"] for c in spec.by_name()["kpis.csv"]["columns"])
    good = "s,control,all,scroll-off,d1_retention,fraction,0.25,0.05,0.66,3,,,,yes"
    (folder / "kpis.csv").write_text(kpi + "\r\n" + good + "\r\n")
    check(spec.check_folder(folder) == [], f"a clean folder: {spec.check_folder(folder)}")
    for bad, want in [("s,control,all,scroll-off,d1_retention,fraction,0.25,-0.33,0.84,3,,,,yes", "outside 0…1"),
                      ("s,control,all,scroll-off,d1_retention,fraction,0.25,0.3,0.84,3,,,,yes", "does not hold"),
                      ("s,control,all,scroll-off,d1_retention,fraction,nan,,,3,,,,yes", "is nan"),
                      ("s,control,all,scroll-off,d1_retention,fraction,0.25,0.05,0.66,-1,,,,yes", "a count below 0"),
                      ("s,control,0,scroll-off,d1_retention,fraction,0.25,0.05,0.66,3,,,,yes", "replication")]:
        (folder / "kpis.csv").write_text(kpi + "\r\n" + bad + "\r\n")
        found = spec.check_folder(folder)
        check(any(want in p for p in found), f"conformance: {bad} should give {want!r}: {found}")
    (folder / "kpis.csv").write_text(kpi.replace(keys, "") + "\r\n")
    check(any("header" in p for p in spec.check_folder(folder)), "conformance: kpis.csv without key columns passed")
    (folder / "kpis.csv").write_text(kpi + "\r\n" + good + "\r\n")
    (folder / "notes.csv").write_text("a\r\n1\r\n")
    check(any("not described" in p for p in spec.check_folder(folder)), "conformance: an undescribed file passed")
    (folder / "notes.csv").unlink()
    (folder / "trace-control-person-1.csv").write_text("time_utc,local_time,kind,detail\r\n")
    check(any("trace-control-person-1.csv" in p for p in spec.check_folder(folder)), "conformance: a trace without keys passed")
    cal = work / "calibration"
    cal.mkdir()
    (cal / "manifest.json").write_text('{"tool": "habitat", "kind": "calibration"}')
    wc = keys + ",".join(spec.output_columns("calibration-world-check")[4:])
    row = "scroll-off-baseline,control,all,scroll-off,earned-access:retention_d1,fraction,x,0.22,0.3,0.25,0.2,0.3,true,yes,1,fitted"
    (cal / "world-check.csv").write_text(wc + "\r\n" + row + "\r\n")
    check(any("labelled with product" in p for p in spec.check_folder(cal)), "conformance: a mislabelled joint row passed")


# --- A product's own report files, declared in its folder (issue 42) ---------------------------------------------

TOY_FRAGMENT = {
    "product": "toy", "files": [{
        "file": "toy-widgets.csv", "key": "toywidgets", "title": "Widgets", "products": ["toy"], "written": "always",
        "rows": "one row per day since install, per arm and replication",
        "columns": [{"name": "day", "unit": "day", "meaning": "day since install"},
                    {"name": "people", "unit": "count", "meaning": "installs observed that day"},
                    {"name": "widgets", "unit": "count", "label": "widgets made", "meaning": "widgets made"}],
        "charts": [{"id": "toy-widgets", "title": "Widgets", "kind": "lines", "x": "day", "y": "widgets",
                    "group": "arm", "over": "replications", "x_label": "day since install",
                    "panels": [{"y": "widgets", "per": "people", "y_label": "widgets per person"}],
                    "meaning": "widgets per person per day"}]}],
    "page": {"sections": [{"after": "revenue", "id": "toy-widgets", "link": "widgets", "title": "Widgets",
                           "files": ["toy-widgets.csv"], "charts": ["toy-widgets"], "intro": "Widgets."}]}}


def check_fragments() -> None:
    """A product folder's fragment may only add files, sections and charts of the specification's kinds: the merge
    refuses one that redefines a generic file, names an unknown chart kind, lists another product, or places a
    section after none; a toy product's fragment adds its file, its section (after revenue) and a chart that the
    generic renderers draw on the page, in the PNG and in the section's table, with no other change."""
    import copy
    import json as json_
    base = json_.loads(spec.SPEC_PATH.read_text(encoding="utf-8"))
    real = spec.fragments()
    check(sorted(p for p, _ in real) == sorted(str(p.relative_to(spec.REPOSITORY))
                                             for p in spec.REPOSITORY.glob("Sources/Products/*/report-spec.json")),
          "fragments: not every product folder's report-spec.json")
    check(all(f["products"] in ("all", "with_app", "with_money") for f in base["files"]),
          "docs/report-spec.json names a product: a product's own file belongs in its folder's fragment")
    spoilt = {
        "redefines a generic file": lambda f: f["files"][0].update(file="kpis.csv"),
        "an unknown chart kind": lambda f: f["files"][0]["charts"][0].update(kind="pie"),
        "another product": lambda f: f["files"][0].update(products=["nudge"]),
        "a section after none": lambda f: f["page"]["sections"][0].update(after="nowhere"),
        "a section with another file": lambda f: f["page"]["sections"][0].update(files=["kpis.csv"]),
        "an extension that changes a title": lambda f: f["page"]["sections"].append({"extends": "revenue", "title": "x"}),
    }
    for what, spoil in spoilt.items():
        fragment = copy.deepcopy(TOY_FRAGMENT)
        spoil(fragment)
        try:
            spec.merged(base, real + [("Sources/Products/Toy/report-spec.json", fragment)])
            FAILURES.append(f"fragments: a fragment with {what} was merged")
        except spec.SpecError as e:
            check("Toy/report-spec.json" in str(e), f"fragments: the refusal names no fragment: {e}")
    # The toy product: its file and chart, drawn by the generic renderers (the one change: its fragment).
    original = spec.fragments
    spec.fragments = lambda root=spec.REPOSITORY: original(root) + [("Sources/Products/Toy/report-spec.json",
                                                                     copy.deepcopy(TOY_FRAGMENT))]
    spec.spec.cache_clear()
    try:
        ids = [s["id"] for s in spec.sections()]
        check(ids[ids.index("revenue") + 1] == "toy-widgets", f"fragments: the toy section is not after revenue: {ids}")
        check(spec.expected_files("toy", 1, False) >= {"toy-widgets.csv", "kpis.csv", "activation-funnel.csv"}
              and "toy-widgets.csv" not in spec.expected_files("nudge", 1, False)
              and "activation-funnel.csv" not in spec.expected_files("none", 1, False),
              "fragments: with_app and the toy's own file")
        rows = pd.DataFrame([{"scenario": "s", "arm": "control", "replication": str(r), "product": "toy", "day": d,
                              "people": 10, "widgets": d + r} for r in (1, 2) for d in range(4)])
        t = {"toywidgets": rows, "kpis": rows[["scenario", "arm", "replication", "product"]]}
        chart = spec.chart("toy-widgets")
        page, png = hc.renderer(chart)(t), hp.renderer(chart)(t)
        import numpy as np
        check(page is not None and np.allclose([tr.y for tr in page.data if tr.mode == "lines"][-1], [0.15, 0.25, 0.35, 0.45]),
              f"fragments: the toy chart on the page {page and [list(tr.y) for tr in page.data]}")
        check(png is not None and not hp.figure_is_empty(png), "fragments: the toy chart's PNG is empty")
        table = rp.section_table(t, spec.sections()[ids.index("toy-widgets")])
        check(table is not None and "widgets made" in table, "fragments: the toy section has no table")
        hp.plt.close("all")
    finally:
        spec.fragments = original
        spec.spec.cache_clear()


def check_histogram_kind() -> None:
    """The generic `histogram` kind (issue 43: Lazuri's study chart) drawn by its one renderer in each output from a
    hand-made study.csv of 3 replications plus pooled rows (the chart's min_replications lowered to 3): on the page a
    bar trace per figure whose y are the replications with each count 0…8 (the pooled row, 24 people, not counted)
    and the mark at the thesis's value; the PNG a visible panel per figure; the table each figure's counts, mark and
    share at or above it. With the chart's own min_replications (20) neither page nor PNG draws one, and the table
    says a histogram needs many replications."""
    import numpy as np
    check(spec.spec()["chart_kinds"]["histogram"]["renderer"] == "generic", "histogram: not a generic kind")
    chart = spec.chart("lazuri-study")
    check(chart["kind"] == "histogram", f"lazuri-study is of kind {chart['kind']}")
    counts = {"week_kept": [8, 3, 3], "opened_day_7": [0, 1, 1], "onboarding_stalled": [2, 1, 5]}
    rows = [{"scenario": "s", "arm": "control", "replication": r, "product": "lazuri", "figure": f,
             "people": 8 * (3 if r == "all" else 1), "count": sum(ks) if r == "all" else ks[int(r) - 1]}
            for f, ks in counts.items() for r in ("1", "2", "3", "all")]
    t = {"study": pd.DataFrame(rows)}
    t["kpis"] = t["study"][["scenario", "arm", "replication", "product"]].drop_duplicates()
    few = dict(chart, min_replications=3)
    expected = {"week_kept": [0, 0, 0, 2, 0, 0, 0, 0, 1], "opened_day_7": [1, 2, 0, 0, 0, 0, 0, 0, 0],
                "onboarding_stalled": [0, 1, 1, 0, 0, 1, 0, 0, 0]}
    labels = spec.value_labels("study", "figure")
    page = hc.renderer(few)(t)
    bars = {tr.hovertemplate.split("<extra>")[1].split("</extra>")[0]: list(tr.y) for tr in (page.data if page else [])
            if tr.type == "bar"}
    check(bars == {labels[f]: ks for f, ks in expected.items()}, f"histogram: the page's bars {bars}")
    marks = sorted(tr.x[0] for tr in (page.data if page else []) if tr.type == "scatter")
    check(marks == [2, 8, 8], f"histogram: the page's marks at {marks}, expected 2, 8, 8")
    png = hp.renderer(few)(t)
    check(png is not None and not hp.figure_is_empty(png) and len([a for a in png.axes if a.get_visible()]) == 3,
          "histogram: the PNG has not a panel per figure")
    table = rp.histogram_table(t, few) or ""
    check(all(f"<td>{labels[f]}</td>" + "".join(f"<td class=num>{k}</td>" for k in ks) in table
              for f, ks in expected.items()), f"histogram: the table's counts {table[:600]}")
    check("8 of 8 in 33.3 % of simulated studies (1 of 3)" in table and "8 of 8 in none of 3 simulated studies" in table
          and "2 of 8 or more in 66.7 % of simulated studies (2 of 3)" in table, "histogram: the table's shares")
    check(np.array_equal(hp.histogram_summary(t, few)["series"][0]["replications"], expected["week_kept"]),
          "histogram: histogram_summary")
    # Too few replications (the chart's own 20): nothing drawn, the table says why.
    check(hc.renderer(chart)(t) is None and hp.renderer(chart)(t) is None, "histogram: drawn from 3 replications")
    table = rp.histogram_table(t, chart) or ""
    check("A histogram needs many replications: this run has 3 replications, and at least 20" in table
          and "8 of 8, 3 of 8, 3 of 8" in table, f"histogram: the too-few note {table[:400]}")
    hp.plt.close("all")


def check_scatter_kind() -> None:
    """The generic `scatter` kind (issue 44: Clavis's trade-off curve) is a kind the specification defines, a
    fragment may use it (a toy fragment's chart of kind scatter is merged), and its one renderer in each output draws
    a hand-made scan-policy.csv of two arms × three replications plus wild pooled rows: on the page one marker trace
    per arm at the means, with both error bars the 95 % half-widths and the arm as its text and meta; the PNG a
    point per arm; the table each arm's two means with their intervals and the `table` columns' means. A share's
    interval is drawn inside 0…1; with one replication the points come without bars."""
    import copy
    import json as json_
    import numpy as np
    kind = spec.spec()["chart_kinds"].get("scatter", {})
    check(kind.get("renderer") == "generic" and bool(kind.get("meaning")), f"scatter: not a generic kind {kind}")
    chart = spec.chart("clavis-tradeoff")
    check(chart["kind"] == "scatter" and chart["x"] == "false_accept_share" and chart["y"] == "false_reject_share",
          f"clavis-tradeoff: {chart}")
    fragment = copy.deepcopy(TOY_FRAGMENT)
    fragment["files"][0]["charts"][0].update(kind="scatter", x="day", y="widgets")
    try:
        merged = spec.merged(json_.loads(spec.SPEC_PATH.read_text(encoding="utf-8")),
                             spec.fragments() + [("Sources/Products/Toy/report-spec.json", fragment)])
        check(any(c["kind"] == "scatter" for f in merged["files"] if f["file"] == fragment["files"][0]["file"]
                  for c in f["charts"]), "scatter: the toy's scatter chart not merged")
    except spec.SpecError as e:
        FAILURES.append(f"scatter: a fragment's scatter chart refused: {e}")
    means = {"strict": (0.02, 0.30), "loose": (0.20, 0.05)}
    rows = []
    for arm, (x, y) in means.items():
        for r, d in (("1", -0.01), ("2", 0.0), ("3", 0.01), ("all", 0.5)):
            rows.append({"scenario": "s", "arm": arm, "replication": r, "product": "clavis", "key_scans": 100,
                         "false_rejects": 10, "false_reject_share": y + d, "look_alike_scans": 20 + int(r == "2"),
                         "false_accepts": 2, "false_accept_share": x + d, "p50_seconds": 2.0, "p90_seconds": 4.0,
                         "camera_seconds": 60.0})
    t = {"scan_policy": pd.DataFrame(rows)}
    t["kpis"] = t["scan_policy"][["scenario", "arm", "replication", "product"]].drop_duplicates()
    half = 0.01 * hp._t95(3) / np.sqrt(3)
    page = hc.renderer(chart)(t)
    traces = {tr.meta["arm"]: tr for tr in (page.data if page else []) if tr.type == "scatter"}
    check(sorted(traces) == sorted(means), f"scatter: the page's traces {sorted(traces)}")
    for arm, (x, y) in means.items():
        tr = traces.get(arm)
        check(tr is not None and np.allclose([tr.x[0], tr.y[0]], [x, y]) and list(tr.text) == [arm]
              and np.allclose([tr.error_x.array[0], tr.error_y.array[0]], [half, half]),
              f"scatter: {arm} on the page {tr and (tr.x, tr.y, tr.error_x.array, tr.error_y.array)}")
    png = hp.renderer(chart)(t)
    check(png is not None and not hp.figure_is_empty(png)
          and len([ln for ln in png.axes[0].get_lines() if ln.get_marker() == "o"]) == 2, "scatter: the PNG's points")
    table = rp.scatter_table(t, chart) or ""
    check('<tr data-arm="strict"><td>strict</td><td class=num><b>2.0 %</b><br><small>± 2.5 %</small></td>'
          '<td class=num><b>30.0 %</b><br><small>± 2.5 %</small></td><td class=num>3</td>' in table
          and "20.3" in table, f"scatter: the table {table[:700]}")
    # A share's interval is drawn inside 0…1: an arm at 1 % ± 2.5 % reaches down to 0, not below.
    edge = pd.DataFrame([dict(r, false_accept_share=r["false_accept_share"] - 0.01) for r in rows if r["arm"] == "strict"])
    tr = next(iter(hc.renderer(chart)({"scan_policy": edge, "kpis": edge}).data), None)
    check(tr is not None and np.allclose([tr.error_x.arrayminus[0], tr.error_x.array[0]], [0.01, half]),
          f"scatter: a share's interval below 0 {tr and (tr.error_x.arrayminus, tr.error_x.array)}")
    one = pd.DataFrame([r for r in rows if r["replication"] in ("1", "all")])
    page = hc.renderer(chart)({"scan_policy": one, "kpis": one})
    check(page is not None and all(tr.error_x.visible is False and tr.error_y.visible is False for tr in page.data),
          "scatter: error bars with one replication")
    hp.plt.close("all")


def check_sensitivity(work: Path) -> None:
    """Issue 45: a `habitat sensitivity` folder made with the binary is what the specification describes (every file,
    every header and value: check_folder), its page draws the tornado chart and lists every output, with the paired
    differences first, and plot_run writes tornado.png; a run with --robustness passes the same
    conformance check with experiment.csv's robustness columns, and its page has the verdict strip and verdicts."""
    try:
        folder = habitat_runs.sensitivity_run(work / "made")
    except habitat_runs.RunUnavailable as e:
        FAILURES.append(f"the sensitivity run could not be made: {e}")
        return
    check(spec.check_folder(folder) == [], f"sensitivity folder against the specification: {spec.check_folder(folder)[:4]}")
    df = hp.load_sensitivity(folder)
    outputs = hp.sensitivity_outputs(df)
    quantities = [o["quantity"] for o in outputs]
    check(quantities and quantities[0] == "paired_diff", f"the tornado's first output is {quantities[:1]}, not a paired difference")
    moved = [o for o in outputs if (hp.tornado_summary(df, o)["value"] > 0).any()]
    check(outputs[:len(moved)] == moved, "outputs no parameter moves come before some it does")
    top = hp.tornado_summary(df, moved[0]) if moved else None
    check(top is not None and list(top["value"]) == sorted(top["value"], reverse=True) and len(top) <= 10,
          "a tornado's bars are not the top 10 largest first")
    text = rp.write_page(folder, STUB_PLOTLY).read_text(encoding="utf-8")
    check('data-chart="tornado"' in text and 'id="sensitivity-table"' in text, "the sensitivity page lacks its chart or table")
    check(text.count("<tr>") >= len(outputs), "the sensitivity page's table lacks outputs")
    out = work / "png-sensitivity"
    done = subprocess.run([sys.executable, str(HERE / "plot_run.py"), str(folder), "--out", str(out)],
                          capture_output=True, text=True)
    check(done.returncode == 0 and (out / "tornado.png").is_file(), f"plot_run on the sensitivity folder: {done.stderr}")
    robust = habitat_runs.robustness_run(work / "made")
    check(spec.check_folder(robust) == [], f"robustness run against the specification: {spec.check_folder(robust)[:4]}")
    header = pd.read_csv(robust / "experiment.csv", nrows=0).columns.tolist()
    check(header == spec.header(spec.by_name()["experiment.csv"], ("robustness",)),
          f"experiment.csv with --robustness: {header}")
    strip = hp.robustness_strip(hp.load_run(robust))
    check(strip is not None and strip["worlds"][0] == 0 and all(len(line) == len(strip["worlds"]) for line in strip["states"]),
          "the verdict strip has no world 0 or a row without every world")
    page = (robust / "report.html").read_text(encoding="utf-8") if (robust / "report.html").is_file() else \
        rp.write_page(robust, STUB_PLOTLY).read_text(encoding="utf-8")
    check('data-chart="robustness"' in page and "robustness across the plausible worlds" in page,
          "the robustness run's page lacks the verdict strip or the arms table's robustness column")


def main() -> int:
    check_spec_is_consistent()
    check_fragments()
    check_histogram_kind()
    check_scatter_kind()
    check_contract_agrees()
    with tempfile.TemporaryDirectory() as d:
        check_conformance_checker(Path(d))
    check_no_private_registry()
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        check_consumers_draw_the_spec(work)
        check_runs_and_notebooks(work)
        check_targets_from_files(work)
        check_new_money_column(work)
        check_modes(work)
        check_sensitivity(work)
    for f in FAILURES:
        print(f"test_report_spec: FAIL {f}", file=sys.stderr)
    if FAILURES:
        return 1
    print("test_report_spec: the specification holds together; habitat_plots, habitat_charts, report_page, plot_run "
          "and run_notebooks read it (no registry, file, product or KPI of their own); runs of several products and of none write and draw what it says; targets only from the run's "
          "files; page and PNGs with the CSVs' mode: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
