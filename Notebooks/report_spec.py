"""The report specification (docs/report-spec.json), as the Python side reads it.

docs/report-spec.json, merged with each product folder's fragment (Sources/Products/<Name>/report-spec.json: the
files only that product writes, issue 42), is the one description of the CSV files a Habitat run writes: each file's columns (name, unit,
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

REPOSITORY = Path(__file__).resolve().parent.parent
SPEC_PATH = REPOSITORY / "docs" / "report-spec.json"
# Each product's own report files (issue 42): a fragment in the product's folder, merged into the specification.
FRAGMENTS = "Sources/Products/*/report-spec.json"


class SpecError(ValueError):
    """A fragment of the specification that breaks its rules (`merged`): the message names the fragment and why."""


@lru_cache(maxsize=1)
def spec() -> dict:
    """The specification: docs/report-spec.json merged with every product folder's fragment (`fragments`, `merged`)."""
    return merged(json.loads(SPEC_PATH.read_text(encoding="utf-8")), fragments())


def fragments(root: Path = REPOSITORY) -> list[tuple[str, dict]]:
    """(path, fragment) of every product folder's `report-spec.json` under `root` (`FRAGMENTS`), in path order; a
    product with no fragment has none. `HABITAT_EXTRA_SPEC_FRAGMENTS` (paths joined by the OS path separator) adds a
    fixture product's fragment after them (a test's toy product, `Tests/Fixtures/Products/`; issue 42)."""
    found = [(str(path.relative_to(root)), json.loads(path.read_text(encoding="utf-8")))
             for path in sorted(root.glob(FRAGMENTS))]
    extra = [Path(p) for p in os.environ.get("HABITAT_EXTRA_SPEC_FRAGMENTS", "").split(os.pathsep) if p]
    return found + [(str(p), json.loads(p.read_text(encoding="utf-8"))) for p in extra]


_FRAGMENT_KEYS = {"about", "product", "app", "money", "files", "page", "trace_columns", "trace_column_meanings"}
_SECTION_EXTENSION_KEYS = {"extends", "files", "charts"}


def merged(base: dict, parts: list[tuple[str, dict]]) -> dict:
    """`base` (docs/report-spec.json) with each fragment's files appended to `files` and its page sections placed
    (issue 42). A fragment names its `product` and may say it has no app (`"app": false`: it writes none of the
    files `"with_app"`); it may only add: files no other file is (by name or key), each written by its product alone
    (`"products": [its product]`), with charts of a kind the specification defines (`chart_kinds`) under new ids;
    sections either new (`after` an existing section: placed right after it) or extending a section (`extends`:
    its own files and charts appended, nothing else); and its trace columns (`trace_columns`, the columns of its
    people's traces after the four every trace starts with, with `trace_column_meanings` for the names the
    specification does not describe yet). Anything else is refused with `SpecError`, naming the
    fragment. The result's `products_without_app` lists the products whose fragment says `"app": false`."""
    import copy
    out = copy.deepcopy(base)
    out["products_without_app"] = []
    out["products_without_money"] = []
    out["fragments"] = []
    kinds = set(base.get("chart_kinds", {})) - {"about"}
    for path, fragment in parts:
        def refuse(why: str) -> None:
            raise SpecError(f"{path}: {why}")
        if not isinstance(fragment, dict) or not isinstance(fragment.get("product"), str):
            refuse("a fragment is an object naming its product (\"product\": \"<id>\")")
        product = fragment["product"]
        unknown = set(fragment) - _FRAGMENT_KEYS
        if unknown:
            refuse(f"unknown fields {sorted(unknown)} (a fragment has {sorted(_FRAGMENT_KEYS)})")
        if product in out["fragments"]:
            refuse(f"a second fragment of {product}")
        out["fragments"].append(product)
        if fragment.get("app", True) is False:
            out["products_without_app"].append(product)
        if fragment.get("money", fragment.get("app", True)) is False:
            out["products_without_money"].append(product)
        names = {f["file"] for f in out["files"]}
        keys = {f["key"] for f in out["files"]}
        chart_ids = {c["id"] for f in out["files"] for c in f.get("charts", [])}
        own_files, own_charts = set(), set()
        for entry in fragment.get("files", []):
            if entry.get("file") in names or entry.get("key") in keys:
                refuse(f"{entry.get('file')} (key {entry.get('key')}) is already described: a fragment may only add "
                       "files, never change one")
            if entry.get("products") != [product]:
                refuse(f"{entry.get('file')}: products {entry.get('products')!r} — a fragment's file is written by "
                       f"its product alone ([\"{product}\"])")
            for chart in entry.get("charts", []):
                if chart.get("kind") not in kinds:
                    refuse(f"{entry['file']}: chart {chart.get('id')} has kind {chart.get('kind')!r}, not one of the "
                           f"specification's chart kinds {sorted(kinds)}")
                if chart.get("id") in chart_ids:
                    refuse(f"{entry['file']}: chart id {chart.get('id')} is already used")
                chart_ids.add(chart["id"])
                own_charts.add(chart["id"])
            names.add(entry["file"])
            keys.add(entry["key"])
            own_files.add(entry["file"])
            out["files"].append(copy.deepcopy(entry))
        if "trace_columns" in fragment:
            trace = next(o for o in out["outputs"] if o["id"] == "trace")
            columns = trace.setdefault("product_columns", {})
            if product in columns:
                refuse(f"{product}'s trace columns are already declared")
            described = {c["name"] for c in trace.get("product_column_meanings", [])}
            for meaning in fragment.get("trace_column_meanings", []):
                if meaning.get("name") in described:
                    refuse(f"trace column {meaning.get('name')!r} is already described: a fragment may only add columns")
                described.add(meaning["name"])
                trace.setdefault("product_column_meanings", []).append(copy.deepcopy(meaning))
            columns[product] = list(fragment["trace_columns"])
        sections = out["page"]["sections"]
        for section in (fragment.get("page") or {}).get("sections", []):
            foreign = set(section.get("files", [])) - own_files
            foreign_charts = set(section.get("charts", [])) - own_charts
            if foreign or foreign_charts:
                refuse(f"section {section.get('id') or section.get('extends')}: files or charts not of this fragment "
                       f"({sorted(foreign | foreign_charts)})")
            ids = [s["id"] for s in sections]
            if "extends" in section:
                if section["extends"] not in ids or set(section) - _SECTION_EXTENSION_KEYS:
                    refuse(f"a section extending {section['extends']!r}: an existing section, and only its files and "
                           "charts added")
                target = sections[ids.index(section["extends"])]
                target["files"] = target.get("files", []) + section.get("files", [])
                target["charts"] = target.get("charts", []) + section.get("charts", [])
            else:
                if section.get("after") not in ids or section.get("id") in ids:
                    refuse(f"section {section.get('id')!r}: a new id, placed after an existing section (after: "
                           f"{section.get('after')!r})")
                sections.insert(ids.index(section["after"]) + 1,
                                {k: v for k, v in section.items() if k != "after"})
    return out


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


def header(entry: dict, conditions: tuple[str, ...] = ()) -> list[str]:
    """A file's header as written: the key columns, then its own — then, for each condition of `conditions` the
    run meets (`written_when`, e.g. "robustness"), the columns written only then (`conditional_columns`)."""
    keys = [c["name"] for c in spec()["key_columns"]] if entry.get("keys", True) else []
    return keys + [c["name"] for c in entry["columns"]] + [c["name"] for c in conditional_columns(entry, conditions)]


def conditional_columns(entry: dict, conditions: tuple[str, ...] | None = None) -> list[dict]:
    """The columns a file gains after its usual ones when the run meets a condition (`conditional_columns`: e.g.
    experiment.csv's robustness verdict, written with `habitat run --robustness`, issue 45), in file order; of the
    conditions named (None: all of them)."""
    return [c for group in entry.get("conditional_columns", [])
            if conditions is None or group["written"] in conditions for c in group["columns"]]


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


def has_app(product: str | None) -> bool:
    """Whether `product` has an app: every product but those whose fragment says `"app": false` (`none`)."""
    return product is not None and product not in spec()["products_without_app"]


def has_money(product: str | None) -> bool:
    """Whether `product` sells something or pays for serving its people (`RevenueModel.hasMoney`): every product but
    those whose fragment says `"money": false` (a free product) or `"app": false` (`none`)."""
    return product is not None and product not in spec()["products_without_money"]


def written_by(entry: dict, product: str | None) -> bool:
    """Whether a run of `product` writes the file (when its condition holds): `products` is "all", "with_app" (every
    product with an app, `has_app`), "with_money" (every product with money, `has_money`: revenue.csv, forecast.csv)
    or the one product whose fragment describes it."""
    products = entry["products"]
    if products == "all":
        return True
    if products == "with_app":
        return has_app(product)
    if products == "with_money":
        return has_money(product)
    return product is not None and product in products


def owners(entry: dict) -> list[str] | None:
    """The products named as writing the file (a product's own file), None for every product or every product with
    an app (`writers`)."""
    return None if isinstance(entry["products"], str) else list(entry["products"])


def writers(entry: dict) -> str:
    """Who writes the file, in words: "every run", "runs of every product with an app", "nudge runs"."""
    products = entry["products"]
    if products == "all":
        return "every run"
    if products == "with_app":
        return "runs of every product with an app"
    if products == "with_money":
        return "runs of every product that sells or pays for its service"
    return f"{', '.join(products)} runs"


def products_named() -> list[str]:
    """Every product a fragment of the specification belongs to (the products with report files or no app)."""
    return list(spec()["fragments"])


def required(product: str | None) -> list[dict]:
    """Files every run of `product` must hold: written always, by it, and not added after runs that may still be read
    (no `since`)."""
    return [f for f in files() if f["written"] == "always" and not f.get("since") and written_by(f, product)]


def written_under(entry: dict, arms: int, acquisition: bool, products: int = 1, robustness: bool = False) -> bool:
    """Whether a run with `arms` arms, with or without an acquisition curve, whose arms are `products` different
    products, run with or without `--robustness`, meets the file's condition (`written`: always, arms, acquisition,
    products, robustness — issue 45: robustness.csv, for a run of arms re-run across a plausible set's worlds)."""
    conditions = {"always": True, "arms": arms > 1, "acquisition": acquisition, "products": products > 1,
                  "robustness": robustness and arms > 1, "robustness-products": robustness and arms > 1 and products > 1}
    return conditions[entry["written"]]


def expected_files(product: str, arms: int, acquisition: bool) -> set[str]:
    """The CSVs a run of `product` with `arms` arms, with or without an acquisition curve, writes (its arms all of
    that product: files written for runs whose arms are different products are not among them)."""
    return {f["file"] for f in files() if written_by(f, product) and written_under(f, arms, acquisition)}


def run_writes(entry: dict, products: list[str], arms: int, acquisition: bool, robustness: bool = False) -> bool:
    """Whether a run whose arms are of `products` (one per distinct product, in arm order), with `arms` arms and
    with or without an acquisition curve (and `--robustness`), writes the file: some product of it writes the file
    and the run meets the file's condition."""
    return (any(written_by(entry, p) for p in products or [None])
            and written_under(entry, arms, acquisition, len(set(products)), robustness))


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


# --- Conformance: every file a command writes described, and its values sane (issue 40) ---------------------------

_NOT_NUMBERS = {"text", "boolean", "month"}
_BAD_NUMBERS = {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}
_ROUNDING = 2e-6   # the writers round to 6 decimals


def trace_pattern() -> re.Pattern:
    """File names of a run's traces (`outputs.trace_people`): trace-<arm>-person-<N>.csv."""
    return re.compile(r"^trace-.+-person-[0-9]+\.csv$")


def describe(name: str, folder: str) -> dict | None:
    """The specification's entry for a file `name` written into a folder of kind `folder` (a manifest's kind:
    report, baseline, shard, calibration, bench), or for a one-file output (folder `compare`, `check`, `trace`);
    None when the specification does not describe it. A baseline holds a report's files."""
    if folder in ("compare", "check", "trace"):
        return output({"compare": "comparison"}.get(folder, folder))
    for other in spec().get("other_files", []):
        if other["file"] == name and other.get("folder", folder) == folder:
            return dict(other, kind_of_entry="other")
    for o in spec()["outputs"]:
        where = o.get("folder")
        if where is None or not (where == folder or (where == "report" and folder == "baseline")):
            continue
        if o.get("file") == name or (o.get("file_pattern") and o["id"] == "trace" and trace_pattern().match(name)):
            return o
    if folder in ("report", "baseline"):
        return by_name().get(name)
    return None


def described_columns(entry: dict, product: str | None = None) -> list[dict]:
    """The column descriptions of an entry after the key columns (an output's base file's, then its own; a trace's
    four, then `product`'s)."""
    if entry.get("columns_of"):
        base = by_name()[entry["columns_of"]]["columns"]
        return list(base) + list(entry.get("extra_columns", []))
    columns = list(entry.get("columns", []))
    if "product_columns" in entry:
        meanings = {c["name"]: c for c in entry.get("product_column_meanings", [])}
        columns += [meanings.get(n, {"name": n, "unit": "unit"}) for n in entry["product_columns"].get(product or "", [])]
    return columns


def _kind(unit) -> str | None:
    """The kind of a unit (units' `kind`): count, share or None."""
    return spec()["units"].get(unit, {}).get("kind") if isinstance(unit, str) else None


def _row_unit(column: dict, row: dict) -> str | None:
    """The unit a column has on a row: its own, the named column's value, or the unit of the named column's value."""
    unit = column.get("unit")
    if isinstance(unit, str):
        return unit
    if isinstance(unit, dict) and "column" in unit:
        return row.get(unit["column"])
    if isinstance(unit, dict) and "value_of" in unit:
        value = row.get(unit["value_of"], "")
        for v in column_values(unit["value_of"]):
            if v["value"] == value:
                return v.get("unit")
        return "count" if value.startswith("paying_people") else None
    return None


def column_values(name: str) -> list[dict]:
    """The named values of any file's column `name` (forecast.csv's metric)."""
    for f in files():
        for c in f["columns"]:
            if c["name"] == name and c.get("values"):
                return c["values"]
    return []


def check_csv(path, entry: dict, folder: str = "report", figures: set | None = None) -> list[str]:
    """What is wrong with one CSV against its entry: the header (key columns unless `keys` is false, then every
    described column in order, nothing else — a calibration.csv's parameter and target columns after them), the key
    values, and every value's sanity (kinds): no NaN or infinity, counts ≥ 0, shares and share intervals inside
    0…1, low ≤ estimate ≤ high for every interval the entry lists. `figures`: the world-check figure ids a
    calibration.csv's target columns may name."""
    import csv
    import io
    import math
    name = os.path.basename(str(path))
    problems: list[str] = []
    try:
        text = read_text(path)
        check_csv_text(path, text)
    except InputError as e:
        return [str(e)]
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header, body = rows[0], [r for r in rows[1:] if r]
    keys = [c["name"] for c in spec()["key_columns"]] if entry.get("keys", True) else []
    product = body[0][3] if keys and header[:len(keys)] == keys and body and len(body[0]) > 3 else None
    columns = described_columns(entry, product)
    if "product_columns" in entry and product is not None and product not in entry["product_columns"]:
        problems.append(f"{name}: product {product!r} has no trace columns in the specification")
    want = keys + [c["name"] for c in columns]
    conditional = conditional_columns(entry)
    if conditional and header[len(want):len(want) + len(conditional)] == [c["name"] for c in conditional]:
        columns = columns + conditional   # written only when the run meets their condition (issue 45: --robustness)
        want = want + [c["name"] for c in conditional]
    got_fixed, rest = header[:len(want)], header[len(want):]
    if got_fixed != want:
        problems.append(f"{name}: header {','.join(header)[:300]} — the specification says {','.join(want)[:300]}…")
        return problems
    if rest:
        if "then" not in entry:
            problems.append(f"{name}: undescribed columns {rest[:5]}")
        else:
            parameters = [c for c in rest if c.startswith("behavior.")]
            targets = rest[len(parameters):]
            if rest[:len(parameters)] != parameters:
                problems.append(f"{name}: a behavior. column after a target column: {rest[:6]}")
            unknown = [t for t in targets if figures is not None and t not in figures]
            if unknown:
                problems.append(f"{name}: target columns that are no world-check figure: {unknown[:4]}")
            columns = columns + [{"name": c, "unit": "unit"} for c in rest]
    by_column = {c["name"]: c for c in columns}
    intervals = entry.get("intervals") or (by_name().get(entry.get("columns_of", ""), {}).get("intervals")
                                           if entry.get("columns_of") else None) or []
    for line, cells in enumerate(body, start=2):
        row = dict(zip(header, cells))
        where = f"{name}:{line}"
        if keys:
            if not row["scenario"] or not row["arm"] or not row["product"]:
                problems.append(f"{where}: an empty key column ({','.join(cells[:4])})")
            if not (row["replication"] == "all" or (row["replication"].isdigit() and int(row["replication"]) >= 1)):
                problems.append(f"{where}: replication {row['replication']!r} is neither 1…N nor all")
        figure = row.get("figure", "")
        if keys and ":" in figure and figure.split(":", 1)[0] != row["product"]:
            problems.append(f"{where}: figure {figure} is labelled with product {row['product']!r} (scenario {row['scenario']!r})")
        numbers: dict[str, float] = {}
        for column, value in row.items():
            if column in keys or value == "":
                continue
            if value.strip().lower() in _BAD_NUMBERS:
                if not (entry.get("undefined_as") == value.strip() and column in rest):
                    problems.append(f"{where}: {column} is {value}")
                continue
            description = by_column.get(column, {})
            unit = _row_unit(description, row)
            if unit in _NOT_NUMBERS or (isinstance(description.get("unit"), str) and description["unit"] in _NOT_NUMBERS):
                continue
            try:
                x = float(value)
            except ValueError:
                if unit not in (None, "unit", "text", "day", "week", "hour"):
                    problems.append(f"{where}: {column} {value[:40]!r} is not a number ({unit})")
                continue
            if not math.isfinite(x):
                problems.append(f"{where}: {column} is {value}")
                continue
            numbers[column] = x
            kind = description.get("kind")
            unit_kind = _kind(unit)
            if kind == "difference":
                continue
            if kind == "interval_end":
                bound = "share" if unit_kind == "share" else None
            else:
                bound = kind or unit_kind
            if bound == "count" and x < -_ROUNDING:
                problems.append(f"{where}: {column} = {value}, a count below 0")
            if bound == "share" and not (-_ROUNDING <= x <= 1 + _ROUNDING):
                what = "an interval for a share" if kind == "interval_end" else "a share"
                problems.append(f"{where}: {column} = {value}, {what} outside 0…1 ({row.get('kpi') or row.get('figure') or row.get('metric') or ''})")
        for interval in intervals:
            e, lo, hi = (numbers.get(interval[k]) for k in ("estimate", "low", "high"))
            if e is not None and lo is not None and hi is not None and not (lo - _ROUNDING <= e <= hi + _ROUNDING):
                problems.append(f"{where}: interval {interval['low']} {lo} ≤ {interval['estimate']} {e} ≤ {interval['high']} {hi} does not hold "
                                f"({row.get('kpi') or row.get('figure') or ''})")
    return problems


def check_folder(folder) -> list[str]:
    """What is wrong with a folder Habitat wrote against the specification: its manifest's kind decides which
    entries apply; every file in it (hidden staging excepted) must be described, every CSV pass `check_csv`."""
    folder = Path(folder)
    problems: list[str] = []
    try:
        kind = json.loads((folder / "manifest.json").read_text(encoding="utf-8")).get("kind", "report")
    except (OSError, ValueError) as e:
        return [f"{folder}: no readable manifest.json ({e})"]
    figures = None
    if (folder / "world-check.csv").is_file():
        import csv
        with open(folder / "world-check.csv", newline="", encoding="utf-8") as f:
            figures = {r.get("figure", "") for r in csv.DictReader(f)}
    for path in sorted(folder.iterdir()):
        if path.name.startswith("."):
            continue
        entry = describe(path.name, kind)
        if entry is None:
            problems.append(f"{path.name}: written into a {kind} folder but not described in docs/report-spec.json")
        elif path.suffix == ".csv":
            problems += check_csv(path, entry, kind, figures)
    return problems
