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
import re
import stat
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


# --- Reading a report file a person may have damaged -----------------------------------------------------------


class InputError(ValueError):
    """A file that cannot be read as what it should be: `file` (its path), `what` is wrong with it (the line and
    column, or the key, where known) and `why` (what was expected). Shown as one line, `FILE: WHAT — WHY`; any of
    the file's own text in it is cut to a readable length (`shown`)."""

    def __init__(self, file, what: str, why: str = ""):
        self.file, self.what, self.why = str(file), what, why
        super().__init__(f"{self.file}: {what}" + (f" — {why}" if why else ""))


def shown(value, limit: int = 80) -> str:
    """A piece of a file's text as a message quotes it: repr (control characters visible), cut to `limit`."""
    text = repr(value if isinstance(value, str) else str(value))
    return text if len(text) <= limit else text[:limit - 2] + "…" + text[-1]


def _line_col(data, offset: int) -> tuple[int, int]:
    """1-based line and column of `offset` in `data` (bytes or text)."""
    newline = b"\n" if isinstance(data, bytes) else "\n"
    line = data.count(newline, 0, offset) + 1
    return line, offset - (data.rfind(newline, 0, offset) + 1) + 1


# One CSV record as RFC 4180 has it: fields quoted ("…", "" for a quote) or bare (no quote, comma or line break).
_FIELD = r'(?:"(?:[^"]|"")*"|[^,"\r\n]*)'
_RECORD = re.compile(_FIELD + r"(?:," + _FIELD + r")*")


def read_text(path, kind: str = "CSV") -> str:
    """A report file's text, refused with `InputError` when it is not a readable regular file (a folder, a device or
    a FIFO — never opened), is empty, binary (gzip, NULs) or not UTF-8 (Habitat writes UTF-8)."""
    path = Path(path)
    try:
        st = os.stat(path)
    except OSError as e:
        raise InputError(path, "cannot be read", e.strerror or str(e)) from e
    if stat.S_ISDIR(st.st_mode):
        raise InputError(path, "is a folder", f"a {kind} file belongs here")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(path, "is not a regular file (a device, FIFO or socket)", f"a {kind} file belongs here")
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError(path, "cannot be read", e.strerror or str(e)) from e
    if not data.strip():
        raise InputError(path, "empty" if not data else "holds only blank space",
                         f"not a {kind} file as Habitat writes it (there is not even a header)" if kind == "CSV"
                         else f"not a {kind} file as Habitat writes it")
    if data[:2] == b"\x1f\x8b":
        raise InputError(path, "binary: gzip-compressed data", f"Habitat writes {kind} as plain UTF-8 text; "
                         "decompress it first")
    nul = data.find(b"\0")
    if nul >= 0:
        line, col = _line_col(data, nul)
        raise InputError(path, f"binary: a NUL byte on line {line}, column {col}", f"Habitat writes {kind} as text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line, col = _line_col(data, e.start)
        raise InputError(path, f"not UTF-8: byte 0x{data[e.start]:02X} on line {line}, column {col}",
                         "Habitat writes UTF-8 (was the file saved as Latin-1 or another code page?)") from e
    return text[1:] if text.startswith("\ufeff") else text


def check_csv_text(path, text: str) -> list[str]:
    """The header of a CSV's text, after checking that it is well-formed: every quote closed and doubled inside a
    quoted field, no quote inside a bare field, every row as many fields as the header. Raises `InputError` naming
    the line (and column)."""
    import csv
    import io
    if '"' in text:
        pos, n = 0, len(text)
        while pos < n:
            end = _RECORD.match(text, pos).end()
            if end < n and text[end] not in "\r\n":
                line, col = _line_col(text, end)
                if text[end] == '"' and (end == pos or text[end - 1] == ","):
                    what = f"a quote opened on line {line}, column {col} is never closed"
                elif text[end] == '"':
                    what = f"a stray quote inside a field on line {line}, column {col}"
                else:
                    what = f"{shown(text[end], 12)} right after a closing quote on line {line}, column {col}"
                start = text.rfind("\n", 0, end) + 1
                stop = text.find("\n", end)
                raise InputError(path, f"badly quoted: {what}", "a quote may only open a field, close it or be "
                                 f"doubled inside it; the line reads {shown(text[start:stop if stop >= 0 else n])}")
            pos = end + (2 if text.startswith("\r\n", end) else 1)
    rows = csv.reader(io.StringIO(text, newline=""))
    header = next(rows, None)
    if not header or not any(c.strip() for c in header):
        raise InputError(path, "no header on line 1", "a CSV file's first line names its columns")
    for row in rows:
        if not row:
            continue
        if len(row) != len(header):
            raise InputError(path, f"line {rows.line_num} has {len(row)} field{'s' if len(row) != 1 else ''}",
                             f"the header has {len(header)}: {shown(','.join(row), 80)}")
    return header
