"""The report specification (docs/report-spec.json), as the Python side reads it.

docs/report-spec.json is the one description of the CSV files a Habitat run writes: each file's columns (name, unit,
meaning), which products write it and when, where its targets come from (a file the run writes, never a constant
here), the charts drawn from it and the sections of the run's page. The Swift writers are held to it by
Tests/SimulationTests/ReportSpecTests.swift; habitat_plots.py, habitat_charts.py, report_page.py, plot_run.py and
run_notebooks.py read it through this module instead of keeping their own lists of files, products and targets.

Standard library only (browser_check.py uses it too).
"""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

SPEC_PATH = Path(__file__).resolve().parent.parent / "docs" / "report-spec.json"


@lru_cache(maxsize=1)
def spec() -> dict:
    """The specification as loaded from docs/report-spec.json."""
    return json.loads(SPEC_PATH.read_text(encoding="utf-8"))


def files() -> list[dict]:
    """Every CSV a run may write, in the specification's order."""
    return spec()["files"]


def by_key() -> dict[str, dict]:
    """The files by their short key (the key of `habitat_plots.load_run`'s tables: "funnel", "kpis", …)."""
    return {f["key"]: f for f in files()}


def by_name() -> dict[str, dict]:
    """The files by file name."""
    return {f["file"]: f for f in files()}


def file_name(key: str) -> str:
    """The CSV of a table key: "funnel" → "activation-funnel.csv"."""
    return by_key()[key]["file"]


def key_of(name: str) -> str:
    """The table key of a CSV: "activation-funnel.csv" → "funnel"."""
    return by_name()[name]["key"]


def header(entry: dict) -> list[str]:
    """A file's header as written: the key columns, then its own."""
    keys = [c["name"] for c in spec()["key_columns"]] if entry.get("keys", True) else []
    return keys + [c["name"] for c in entry["columns"]]


def column(key: str, name: str) -> dict:
    """One column's description (name, unit, meaning, maybe label and values)."""
    return next(c for c in by_key()[key]["columns"] if c["name"] == name)


def values(key: str, name: str) -> list[dict]:
    """The values a column's description names (e.g. retention.csv's `activity` readings), in its order."""
    return column(key, name).get("values", [])


def value_labels(key: str, name: str) -> dict[str, str]:
    """{value: label} of a column's named values."""
    return {v["value"]: v.get("label", v["value"]) for v in values(key, name)}


def label(key: str, name: str) -> str:
    """A column's label for people (its `label`, else its name)."""
    return column(key, name).get("label", name)


def columns_with_unit(key: str, unit: str) -> list[str]:
    """A file's columns of one unit, in file order (e.g. every usd column of revenue.csv)."""
    return [c["name"] for c in by_key()[key]["columns"] if c.get("unit") == unit]


def unit_labels() -> dict[str, str]:
    """{unit: label} of every unit the reports use (kpis.csv's and world-check.csv's `unit` column among them)."""
    return {u: d["label"] for u, d in spec()["units"].items()}


def written_by(entry: dict, product: str | None) -> bool:
    """Whether a run of `product` writes the file (when its condition holds)."""
    products = entry["products"]
    return products == "all" or (product is not None and product in products)


def owners(entry: dict) -> list[str] | None:
    """The products that write the file, None for every product."""
    return None if entry["products"] == "all" else list(entry["products"])


def required(product: str | None) -> list[dict]:
    """Files every run of `product` must hold: written always, by it, and not added after runs that may still be read
    (no `since`)."""
    return [f for f in files() if f["written"] == "always" and not f.get("since") and written_by(f, product)]


def written_under(entry: dict, arms: int, acquisition: bool, products: int = 1) -> bool:
    """Whether a run with `arms` arms, with or without an acquisition curve, whose arms are `products` different
    products, meets the file's condition (`written`: always, arms, acquisition, products)."""
    conditions = {"always": True, "arms": arms > 1, "acquisition": acquisition, "products": products > 1}
    return conditions[entry["written"]]


def expected_files(product: str, arms: int, acquisition: bool) -> set[str]:
    """The CSVs a run of `product` with `arms` arms, with or without an acquisition curve, writes (its arms all of
    that product: files written for runs whose arms are different products are not among them)."""
    return {f["file"] for f in files() if written_by(f, product) and written_under(f, arms, acquisition)}


def run_writes(entry: dict, products: list[str], arms: int, acquisition: bool) -> bool:
    """Whether a run whose arms are of `products` (one per distinct product, in arm order), with `arms` arms and
    with or without an acquisition curve, writes the file: some product of it writes the file and the run meets the
    file's condition."""
    return (any(written_by(entry, p) for p in products or [None])
            and written_under(entry, arms, acquisition, len(set(products))))


def charts() -> list[dict]:
    """Every chart the specification draws, in file order; each with the key of the file it is drawn from (`key`)."""
    return [dict(c, key=f["key"], file=f["file"]) for f in files() for c in f.get("charts", [])]


def chart(chart_id: str) -> dict:
    return next(c for c in charts() if c["id"] == chart_id)


def function_name(identifier: str) -> str:
    """The Python name that draws a chart or writes a section's table: "world-check" → "world_check"."""
    return identifier.replace("-", "_")


def targets(key: str) -> dict | None:
    """Where a file's targets come from (`source`: "columns" of the file itself, or another file the run writes)."""
    return by_key()[key].get("targets")


def sections() -> list[dict]:
    """The run page's sections in reading order."""
    return spec()["page"]["sections"]


def headline_kpis() -> list[dict]:
    return spec()["page"]["headline_kpis"]


def output(output_id: str) -> dict:
    """A one-file output of a command (`comparison`, `check`): its columns are another file's, then its own."""
    return next(o for o in spec()["outputs"] if o["id"] == output_id)


def output_columns(output_id: str) -> list[str]:
    o = output(output_id)
    return header(by_name()[o["columns_of"]]) + [c["name"] for c in o["extra_columns"]]


# --- How report files are written ------------------------------------------------------------------------------


def report_file_mode() -> int:
    """The mode Habitat's Swift writer gives the CSVs (`open(…, 0o644)` under the process umask): 0644 under the
    usual umask 022. report.html, comparison pages, PNGs and screenshots are given the same."""
    return 0o644 & ~current_umask()


def current_umask() -> int:
    """The process umask (read from /proc where it is shown, else set and restored)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def set_report_mode(path, fd: int | None = None) -> None:
    """Gives a file Habitat's Python writes the mode of the CSVs beside it (see `report_file_mode`)."""
    if fd is not None:
        os.fchmod(fd, report_file_mode())
    else:
        os.chmod(path, report_file_mode())
