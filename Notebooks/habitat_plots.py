"""Figures of a Habitat run, shared by the notebooks and by plot_run.py.

Every function takes a run directory's tables (see `load_run`) and returns a matplotlib figure, or None when the
run has no data for it (e.g. no experiment.csv without arms, no token-revenue-share.csv for Earned Access, no
unlocks.csv for Scroll Off).

Which files a run holds, their columns, which products write them, where their targets come from and which figures
are drawn is read from the report specification (docs/report-spec.json, through `report_spec`): a figure is drawn
for each of its charts (`ALL`), by the function of the chart's name. Targets, budgets, ceilings and ranges are
those the run's own files carry (a funnel's target columns, kpis.csv's targets, battery-budget.csv's budgets,
token-revenue-share.csv's threshold, world-check.csv's ranges); where no file carries one, none is drawn.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import matplotlib

if os.environ.get("MPLBACKEND") is None and not os.environ.get("DISPLAY"):
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import report_spec as spec  # noqa: E402

# The run's files by table key ("funnel" → "activation-funnel.csv"), as the specification names them.
REPORTS = {f["key"]: f["file"] for f in spec.files()}
# Written by every run, whatever the product (the specification's files written always, by every product).
REQUIRED = [f["key"] for f in spec.required(None)]

# Every figure made here, so that tests can check none is empty.
FIGURES: list = []


def default_run_dir(name: str = "scroll-off-baseline") -> Path:
    """HABITAT_RUN_DIR, else Reports/<name> (default scroll-off-baseline, what `make run` writes), relative to the
    repository."""
    env = os.environ.get("HABITAT_RUN_DIR")
    if env:
        return Path(env)
    here = Path.cwd()
    for base in [here, here.parent]:
        if (base / "Reports").is_dir():
            return base / "Reports" / name
    return Path("Reports") / name


def run_product(run_dir) -> str | None:
    """The product a run directory simulated: the `product` column of its kpis.csv (every report carries it),
    else manifest.json's `product` or its resolved scenario's `product:` line; None when the run mixes products (its
    arms are different products: `run_products`) or none is found."""
    products = run_products(run_dir)
    return products[0] if len(products) == 1 else None


def run_products(run_dir) -> list[str]:
    """Every product a run directory simulated, in arm order: the `product` column of its kpis.csv (a run whose arms
    are different products has one per arm), else manifest.json's `product` or its resolved scenario's `product:`
    line; [] when none is found."""
    import json
    import re
    run_dir = Path(run_dir)
    kpis = run_dir / REPORTS["kpis"]
    if kpis.is_file():
        try:
            values = pd.read_csv(kpis, usecols=["product"])["product"].dropna().unique()
        except (ValueError, OSError):   # also not UTF-8, or badly quoted: load_run or report_page.py says so   # no product column: not a run's kpis.csv (load_run says what is missing)
            values = []
        if len(values):
            return [str(v) for v in values]
    manifest = run_dir / "manifest.json"
    if manifest.is_file():
        try:
            m = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):   # report_page.py says why it cannot read it
            m = {}
        m = m if isinstance(m, dict) else {}
        if m.get("product"):
            return [str(m["product"])]
        scenario = m.get("resolved_scenario")
        found = re.search(r"^product:\s*\"?([\w-]+)", scenario if isinstance(scenario, str) else "", re.MULTILINE)
        if found:
            return [found.group(1)]
    return []


def run_shape(run_dir) -> tuple[list[str], int, bool]:
    """(products in arm order, number of arms, whether it has an acquisition curve) of a run directory: what decides
    which files it writes (`report_spec.run_writes`). Read from its kpis.csv and manifest.json's resolved scenario."""
    import json
    run_dir = Path(run_dir)
    arms = 1
    kpis = run_dir / REPORTS["kpis"]
    if kpis.is_file():
        try:
            arms = max(pd.read_csv(kpis, usecols=["arm"], dtype=str)["arm"].nunique(), 1)
        except (ValueError, OSError):
            pass
    acquisition = False
    manifest = run_dir / "manifest.json"
    if manifest.is_file():
        try:
            scenario = json.loads(manifest.read_text(encoding="utf-8")).get("resolved_scenario", "")
        except (OSError, ValueError, RecursionError, AttributeError):
            scenario = ""
        scenario = scenario if isinstance(scenario, str) else ""
        acquisition = any(line.strip().startswith("acquisition:") for line in scenario.splitlines())
    return run_products(run_dir), arms, acquisition


def product(t: dict) -> str | None:
    """The product of a run's tables (see `run_product`): the one value of the `product` column, else None."""
    for key in REPORTS:
        if key in t and "product" in t[key].columns:
            values = t[key]["product"].dropna().unique()
            if len(values):
                return str(values[0]) if len(values) == 1 else None
    return None


# A report file the run holds but that is not as the report specification describes it (the message names the file
# and says how): report_spec's `InputError` (file, what, why).
ReportError = spec.InputError


# Files read strictly: every column the specification lists must be there and its numbers must be numbers (a run's
# comparison of products is read cell by cell; a file cut short or edited by hand is refused, not half drawn).
STRICT = [f["key"] for f in spec.files() if f["written"] == "products"]


def load_run(run_dir, strict: bool = False) -> dict:
    """Reads a run directory's CSV reports into DataFrames (keys of REPORTS; optional ones may be missing).

    Refuses a folder without the files every run writes, and a run without the files the specification says its
    products write (token-revenue-share.csv for a Scroll Off run or arm, unlocks.csv for an Earned Access one; a run
    of `none`, no app, writes only the product-neutral files). A file read strictly (`STRICT`, or every file with
    `strict`, as report_page.py reads them: `read_checked`) that is not a well-formed UTF-8 CSV, lacks a column or
    holds text where numbers belong raises `ReportError` (a `report_spec.InputError`)."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise FileNotFoundError(f"{run_dir}: not a directory — run `make run` or `habitat run … --out {run_dir}` first")
    there = os.path.lexists if strict else os.path.isfile   # strictly, a folder in a file's place is said so below
    missing = [REPORTS[k] for k in REQUIRED if not there(run_dir / REPORTS[k])]
    if missing:
        raise FileNotFoundError(f"{run_dir}: missing {', '.join(missing)} — is this a habitat run directory?")
    if strict:
        for key in REQUIRED:
            spec.read_text(run_dir / REPORTS[key])
    for name in run_products(run_dir) or [None]:
        missing = [f["file"] for f in spec.required(name) if not there(run_dir / f["file"])]
        if missing:
            raise FileNotFoundError(f"{run_dir}: a {name} run without {', '.join(missing)}")
    tables = {}
    for key, name in REPORTS.items():
        path = run_dir / name
        if strict and os.path.lexists(path):
            tables[key] = read_checked(path, key)   # a folder, a FIFO or a dangling link in its place is refused
        elif path.is_file():
            if key in STRICT:
                tables[key] = read_checked(path, key)
                continue
            tables[key] = pd.read_csv(path, dtype=DTYPES)
    _rename_old_names(tables)
    manifest = run_dir / "manifest.json"
    if manifest.is_file():
        import json
        try:
            tables["manifest"] = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            pass   # the figures do without it (report_page.py says why it cannot read it)
    tables["dir"] = run_dir
    return tables


# Names renamed in issue 39 (one name per meaning): retention.csv's reading `product_in_use` is `in_use`, and
# product-comparison.csv's `retention_dN` (the product in use on day N) is `in_use_dN`. Reports written before read
# under the new names, with a DeprecationWarning (CONTRACT.md: an old name still works and warns; shown under
# `python -W default` and in tests, silent in a page's stderr, which stays one line).
OLD_NAMES = {("retention", "activity"): {"product_in_use": "in_use"},
             ("products", "kpi"): {f"retention_d{d}": f"in_use_d{d}" for d in (1, 7, 30)}}


def _rename_old_names(tables: dict) -> None:
    """Reads a report written before issue 39 under today's names (`OLD_NAMES`), warning once per file."""
    import warnings
    for (key, column), names in OLD_NAMES.items():
        df = tables.get(key)
        if df is None or column not in df.columns or not df[column].isin(list(names)).any():
            continue
        warnings.warn(f"{REPORTS[key]}: {', '.join(sorted(set(df[column]) & set(names)))} renamed in issue 39 "
                      f"({', '.join(f'{a} → {b}' for a, b in names.items())}); read under the new names",
                      DeprecationWarning, stacklevel=2)   # shown under -W default, in tests; a page's stderr stays one line
        tables[key] = df.assign(**{column: df[column].replace(names)})


# Columns read as text whatever they hold.
DTYPES = {"replication": str, "month": str, "cohort": str, "arm": str}
# Beyond any figure a run writes (Habitat counts in 64-bit integers): a number this large was not written by it.
NUMBER_LIMIT = 9.2e18
BOOLEANS = {"true", "false"}
MONTH = r"^(?:\d{4}-\d{2}|total)$"


def _not_what(unit, value: str) -> str:
    """Why a cell of a column of `unit` is refused."""
    if unit == "boolean":
        return "not true or false"
    if unit == "month":
        return "not a month (YYYY-MM) or total"
    try:
        number = float(value)
    except ValueError:
        return "not a number"
    if not np.isfinite(number):
        return "not a finite number"
    return f"beyond what a run writes (more than {NUMBER_LIMIT:.2g})"


def read_checked(path, key: str | None = None, columns: list[dict] | None = None,
                 rows_required: str | None = None) -> pd.DataFrame:
    """A report CSV read strictly: refused (`report_spec.InputError`, a `ReportError`) unless it is a regular file
    of UTF-8 text, well-formed (quotes, the header's number of fields on every row), with every column the
    specification lists for the file `key` (or `columns`: dicts of name, unit and maybe `since`; columns added
    `since` an issue may be missing in older files), numbers that are finite numbers within what a run writes,
    true / false where booleans go and YYYY-MM or total where months go; with `rows_required` (why), at least one
    row.
    Returns the DataFrame as `pd.read_csv` reads it (the columns of `DTYPES` as text)."""
    import io
    text = spec.read_text(path)
    header = spec.check_csv_text(path, text)
    if columns is None:
        entry = spec.by_key()[key]
        keys = spec.spec()["key_columns"] if entry.get("keys", True) else []
        columns = keys + entry["columns"]
        described = f"the {entry['file']} docs/report-spec.json describes"
    else:
        described = "the file docs/report-spec.json describes"
    missing = [c["name"] for c in columns if c["name"] not in header and not c.get("since")]
    if missing:
        names = ", ".join(missing[:6]) + (f", … ({len(missing)} in all)" if len(missing) > 6 else "")
        raise spec.InputError(path, f"missing column{'s' if len(missing) > 1 else ''} {names}",
                              f"not {described} (its header: {spec.shown(','.join(header))})")
    cells = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    if rows_required and cells.empty:
        raise spec.InputError(path, "no rows, only the header", rows_required)
    for c in columns:
        name, unit = c["name"], c.get("unit")
        if name not in cells.columns:
            continue
        raw = cells[name].astype(str).str.strip()
        given = raw != ""
        if unit == "boolean":
            bad = given & ~raw.str.lower().isin(BOOLEANS)
        elif unit == "month":
            bad = given & ~raw.str.match(MONTH)
        elif isinstance(unit, str) and unit == "text":
            continue
        else:
            numbers = pd.to_numeric(raw.where(given), errors="coerce").astype(float)
            bad = given & ~(np.isfinite(numbers) & (numbers.abs() <= NUMBER_LIMIT))
        if bad.any():
            n = int(bad.sum())
            first = bad.idxmax()
            raise spec.InputError(path, f"column {name} holds {spec.shown(cells[name][first])} on line {first + 2}",
                                  _not_what(unit, raw[first]) + (f" ({n} such cells)" if n > 1 else ""))
    return pd.read_csv(io.StringIO(text), dtype=DTYPES)


def _figure(*args, **kwargs):
    fig = plt.figure(*args, **kwargs)
    FIGURES.append(fig)
    return fig


def _pooled(df: pd.DataFrame) -> pd.DataFrame:
    """Rows pooled over replications when there are several, else replication 1."""
    return df[df["replication"] == "all"] if (df["replication"] == "all").any() else df[df["replication"] == "1"]


def _replications(t: dict, df: pd.DataFrame) -> list:
    """The run's replications (not "all"): those of kpis.csv, which has a row per replication even when another
    report has none (revenue.csv writes no row for a replication without money), else those of `df`."""
    source = t["kpis"] if "kpis" in t and "replication" in t["kpis"].columns else df
    reps = [r for r in dict.fromkeys(source["replication"].astype(str)) if r != "all"]
    return reps or [r for r in dict.fromkeys(df["replication"].astype(str)) if r != "all"]


def _mean_band(values: pd.DataFrame):
    """Mean over the columns (replications) of a frame indexed by x, and the half-width of its 95 % interval
    (0 with one replication)."""
    n = values.notna().sum(axis=1)
    mean = values.mean(axis=1)
    half = (values.std(axis=1).fillna(0) / np.sqrt(n.clip(lower=1)) * n.map(_t95)).where(n > 1, 0)
    return mean, half


def _t95(n: int) -> float:
    table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}
    return table.get(n, 1.96 if n > 30 else 2.05)


def _stage_label(stage: str, name: str, width: int = 16) -> str:
    """'A1.5 Implementation intention created', wrapped onto lines of about `width` characters (nothing cut)."""
    import textwrap
    return "\n".join(textwrap.wrap(f"{stage} {name}", width=width, break_long_words=False))


def file_targets(df: pd.DataFrame, key: str) -> pd.DataFrame:
    """`df` (rows of the file `key`) with the targets the file itself carries as `_target_min`, `_target_max` and
    `_target_met`: the columns the specification names for them (`targets.source` "columns"), NaN where it names
    none or the file lacks the column. No target is ever made up here."""
    described = spec.targets(key) or {}
    out = df.copy()
    for role in ("min", "max", "met"):
        name = described.get(role) if described.get("source") == "columns" else None
        out[f"_target_{role}"] = df[name] if name and name in df.columns else np.nan
    return out


def funnel_basis(rows: pd.DataFrame) -> pd.DataFrame:
    """One arm's activation-funnel.csv rows (in stage order, after `file_targets`) with what each stage's target is
    read against (issue 38): `_basis` (`previous_stage`, `installs` or `installs_observed_past_day_N`: the file's
    `target_basis`), `_measure` (its `rate_on_basis`: the step conversion, or the share of the installs in the basis)
    and `_basis_share` (the basis population's share of installs, so that target × `_basis_share` is where the target
    sits on the share-of-installs axis). A file written before the basis columns has step conversions only: the
    previous stage's share of installs."""
    out = rows.copy()
    previous = pd.to_numeric(out["rate_from_start"], errors="coerce").shift(1)
    if "target_basis" in out.columns and "rate_on_basis" in out.columns:
        out["_basis"] = out["target_basis"].replace("", "previous_stage").fillna("previous_stage")
        out["_measure"] = pd.to_numeric(out["rate_on_basis"], errors="coerce")
        basis = pd.to_numeric(out["basis_people"], errors="coerce")
        installs = basis.max()
        out["_basis_share"] = basis / installs if installs and installs > 0 else np.nan
    else:
        out["_basis"] = "previous_stage"
        out["_measure"] = pd.to_numeric(out["rate_from_previous"], errors="coerce")
        out["_basis_share"] = previous
    return out


def basis_words(basis: str) -> str:
    """A stage's target basis in words: "of the previous stage", "of installs", "of installs observed past day 7"."""
    if basis in ("", "previous_stage"):
        return "of the previous stage"
    return "of " + str(basis).replace("_", " ")


def funnel(t: dict):
    """Activation funnel, per arm: the share of installs reaching each stage (top) and each stage's rate on its
    target's basis (bottom): the conversion from the previous stage, or — for a stage whose target is a share of
    installs (issue 38: Nudge's N6 day-7 retention and N7 Free → Pro) — its share of the installs in its basis.

    The stage targets are read from the file's own target columns (the specification's `targets`): a product that
    sets none (Earned Access) has them empty and gets no marks. On the top axis each is drawn where it applies — at
    the basis population's share of installs × the target (the previous stage's height for a step target), for each
    arm's bar — so a bar reaching its mark meets the target; on the bottom axis the targets are drawn as they are,
    against the rate on the basis. A stage with an upper bound gets a dotted mark too and a shaded band between the
    two; a missed target is marked ✗ on the bottom axis.
    """
    if "funnel" not in t:   # a run without the file (a run of no app writes none)
        return None
    df = file_targets(_pooled(t["funnel"]), "funnel")
    arms = list(dict.fromkeys(df["arm"]))
    stages = df.drop_duplicates("stage_order").sort_values("stage_order")
    fig = _figure(figsize=(max(10, 1.15 * len(stages)), 7.5))
    top, bottom = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    width = 0.8 / len(arms)
    x = np.arange(len(stages))
    mark = dict(color="black", lw=1.2)
    for i, arm in enumerate(arms):
        rows = funnel_basis(df[df["arm"] == arm].sort_values("stage_order").reset_index(drop=True))
        position = {o: k for k, o in enumerate(stages["stage_order"])}   # arms of products with fewer stages
        left = np.array([position[o] for o in rows["stage_order"]], dtype=float) + i * width - 0.4
        color = f"C{i}"
        bars = top.bar(left + width / 2, rows["rate_from_start"], width, label=arm, color=color)
        for b, r in zip(bars, rows["_measure"]):
            if pd.notna(r):
                top.annotate(f"{r:.0%}", (b.get_x() + b.get_width() / 2, b.get_height()), ha="center", va="bottom", fontsize=7)
        bottom.bar(left + width / 2, rows["_measure"], width, color=color)
        for j, r in rows.iterrows():
            if pd.isna(r["_target_min"]) or pd.isna(r["_basis_share"]):
                continue
            previous = r["_basis_share"]
            xs = [left[j], left[j] + width]
            lo, hi = r["_target_min"], r["_target_max"]
            top.plot(xs, [previous * lo] * 2, ls="--", **mark)
            bottom.plot(xs, [lo] * 2, ls="--", **mark)
            if pd.notna(hi):
                top.plot(xs, [previous * hi] * 2, ls=":", **mark)
                bottom.plot(xs, [hi] * 2, ls=":", **mark)
                top.fill_between(xs, previous * lo, previous * hi, color="grey", alpha=0.25, lw=0)
                bottom.fill_between(xs, lo, hi, color="grey", alpha=0.25, lw=0)
            if str(r["_target_met"]).lower() == "false":
                bottom.annotate("✗", (left[j] + width / 2, r["_measure"]), ha="center", va="bottom",
                                fontsize=9, color="red")
    if df["_target_min"].notna().any():
        top.plot([], [], ls="--", **mark, label="step target (min): previous stage's share × target"
                 + (" (a share-of-installs target: its basis's share × target)" if "target_basis" in df.columns
                    and (df["target_basis"].fillna("").replace("", "previous_stage") != "previous_stage").any() else ""))
    if df["_target_max"].notna().any():
        top.plot([], [], ls=":", **mark, label="step target (max), shaded: target range")
    if (df["_target_met"].astype(str).str.lower() == "false").any():
        bottom.plot([], [], ls="none", marker="$✗$", color="red", label="misses its target")
        bottom.legend(fontsize=8, loc="lower left")
    top.set_ylabel("share of installs\nreaching the stage")
    top.set_ylim(0, 1.12)
    name = product(t)
    top.set_title(f"Activation funnel{f' — {name}' if name else ''} (labels: rate on the target's basis — the previous "
                  "stage, or installs)")
    handles, labels = top.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda k: labels[k] not in arms)  # arms first, then the marks
    top.legend([handles[k] for k in order], [labels[k] for k in order], fontsize=8, loc="upper right")
    bottom.set_ylabel("conversion from the previous\nstage (or share of installs)")
    bottom.set_ylim(0, 1.12)
    # A stage's label; where the arms are different products (issue 28) with their own stages, each product's stage
    # at that position, one under the other.
    labels = ["\n".join(dict.fromkeys(_stage_label(s, n) for s, n in zip(g["stage"], g["stage_name"])))
              for _, g in df.sort_values("stage_order", kind="stable").groupby("stage_order", sort=True)]
    bottom.set_xticks(x, labels, fontsize=7 if max(label.count("\n") for label in labels) < 4 else 6)
    fig.tight_layout()
    return fig


# retention.csv's readings of "active" ({activity: label}), as the specification describes its `activity` column.
RETENTION_READINGS = spec.value_labels("retention", "activity")


def retention_targets(t: dict) -> list[tuple[int, float, str]]:
    """(day, target, label) of every retention target the run's own files carry: the specification names where
    (retention.csv's `targets`: pooled rows of kpis.csv, each at its day); a row the run's kpis.csv lacks, or
    whose target is empty, gives none."""
    described = spec.targets("retention") or {}
    source = spec.by_name().get(described.get("source", ""))
    table = t.get(source["key"]) if source else None
    if table is None:
        return []
    out = []
    for target in described.get("rows", []):
        row = table[(table["kpi"] == target["kpi"]) & (table["replication"].astype(str) == "all")]
        if len(row) and pd.notna(row[described["min"]].iloc[0]):
            out.append((int(target["day"]), float(row[described["min"]].iloc[0]), target["label"]))
    return out


def personas_and_plans(t: dict, segments: list) -> tuple[list, list]:
    """retention.csv's segments (besides `all`) split into the run's personas — those its manifest.json's resolved
    scenario lists — and plans (the others). Without a manifest every segment counts as a persona."""
    personas = set(scenario_personas(t.get("manifest") or {}))
    segments = [s for s in segments if s != "all"]
    if not personas:
        return segments, []
    return [s for s in segments if s in personas], [s for s in segments if s not in personas]


def scenario_personas(manifest: dict) -> list[str]:
    """The persona names of a manifest's resolved scenario (`population:` → `personas:` → `- name:`)."""
    import re
    text = manifest.get("resolved_scenario", "")
    block = re.search(r"^  personas:\n((?:    .*\n?)*)", text, re.MULTILINE)
    return re.findall(r"^    - name:\s*\"?([^\"\n]+?)\"?\s*$", block.group(1), re.MULTILINE) if block else []


def retention(t: dict, activity: str = "in_use"):
    """Day-N retention of all installs with a 95 % band over replications, by persona, by plan and by install week;
    the retention targets the run's kpis.csv carries marked at their days.

    Panels use the `activity` reading — `in_use` (the charter KPIs', the default) or `app_opened` (voluntary); the first
    panel adds the other reading dashed. Reports written before the `activity` column have one reading (app opened)
    and are drawn as such."""
    if "retention" not in t:   # a run without the file (a run of no app writes none)
        return None
    if activity not in RETENTION_READINGS:
        raise ValueError(f"activity must be one of {', '.join(RETENTION_READINGS)}")
    df = t["retention"]
    opened = None
    other = next(a for a in RETENTION_READINGS if a != activity)
    if "activity" in df.columns:
        opened = df[(df["activity"] == other) & (df["replication"] != "all") & (df["cohort"] == "all")]
        df = df[df["activity"] == activity]
    reps = df[df["replication"] != "all"]
    allc = reps[reps["cohort"] == "all"]
    fig = _figure(figsize=(17, 4.2))
    personas, plans = personas_and_plans(t, sorted(allc["segment"].unique()))
    targets = retention_targets(t)
    arm0 = allc["arm"].iloc[0]
    cohorts = sorted(c for c in reps["cohort"].unique() if c != "all")
    panels = [("all installs", "segment", ["all"]), ("by persona", "segment", personas),
              ("by plan (highest held)", "segment", plans), ("by install week", "cohort", cohorts)]
    for p, (title, column, groups) in enumerate(panels):
        ax = fig.add_subplot(1, 4, p + 1)
        for seg in groups:
            base = allc if column == "segment" else reps[reps["segment"] == "all"]
            g = base[(base[column] == seg) & (base["arm"] == arm0)].groupby("day")["retention"]
            mean, n, sd = g.mean(), g.count(), g.std().fillna(0)
            half = sd / np.sqrt(n.clip(lower=1)) * n.map(_t95)
            ax.plot(mean.index, mean.values, label=seg)
            if n.max() > 1:
                ax.fill_between(mean.index, (mean - half).clip(0, 1), (mean + half).clip(0, 1), alpha=0.2)
        if p == 0 and opened is not None and len(opened):
            g = opened[(opened["segment"] == "all") & (opened["arm"] == arm0)].groupby("day")["retention"].mean()
            ax.plot(g.index, g.values, ls="--", color="grey", label=f"all ({RETENTION_READINGS[other]})")
        for day, target, _ in targets:
            ax.axvline(day, color="grey", lw=0.6, ls=":")
            if p == 0:
                ax.plot(day, target, marker="_", color="black", markersize=14)
        ax.set_xlabel("day since install")
        ax.set_ylabel(f"retention ({RETENTION_READINGS[activity] if opened is not None else RETENTION_READINGS['app_opened']})")
        ax.set_ylim(0, 1)
        ax.set_title(f"Retention, {title}")
        ax.legend(fontsize=7)
    reading = RETENTION_READINGS[activity] if opened is not None else RETENTION_READINGS["app_opened"]
    fig.suptitle(f"Day-N retention ({reading}), 95 % band over replications"
                 + (f" (— the run's targets at {', '.join(label for _, _, label in targets)})" if targets else ""),
                 fontsize=10)
    fig.tight_layout()
    return fig


def token_share(t: dict):
    """Monthly gross revenue by source (stacked), the token share against the ceiling the file carries, cap hits
    (None for a run without token-revenue-share.csv — products without consumables —, or whose first arm has no
    month with money)."""
    if "tokens" not in t:
        return None
    df = file_targets(_pooled(t["tokens"]), "tokens")
    df = df[(df["month"] != "total") & (df["arm"] == df["arm"].iloc[0])]
    if df.empty:
        return None
    fig = _figure(figsize=(11, 4))
    ax = fig.add_subplot(121)
    months = df["month"].tolist()
    bottom = np.zeros(len(months))
    for column in ["subscription_gross_usd", "token_gross_usd", "other_gross_usd"]:
        ax.bar(months, df[column], bottom=bottom, label=spec.label("tokens", column))
        bottom += df[column].to_numpy(dtype=float)
    ax.set_ylabel("gross revenue, USD")
    ax.set_title("Revenue by source")
    ax.legend(fontsize=8)
    ax2 = fig.add_subplot(122)
    ax2.plot(months, df["token_share"], marker="o", label="token share")
    ceiling = df["_target_max"].dropna()
    if len(ceiling):
        ax2.axhline(float(ceiling.iloc[0]), color="red", ls="--", label=f"limit {float(ceiling.iloc[0]):.0%}")
    ax2.set_ylim(0, 1)
    ax2.set_ylabel("token share of gross revenue")
    ax3 = ax2.twinx()
    ax3.bar(months, df["cap_hits"], alpha=0.25, color="grey", label="cap hits")
    ax3.set_ylabel("token cap hits")
    ax2.set_title("Token revenue share and cap hits")
    ax2.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


# battery-budget.csv's metrics ({metric: label}), as the specification describes its `metric` column.
BATTERY_METRICS = spec.value_labels("battery", "metric")


def battery(t: dict):
    """Battery drain distribution by device (mean, p50–p99, max), one panel per metric, against the budgets
    battery-budget.csv carries (first arm)."""
    if "battery" not in t:   # a run without the file (a run of no app writes none)
        return None
    df = file_targets(_pooled(t["battery"]), "battery")
    df = df[df["arm"] == df["arm"].iloc[0]]
    metrics = [m for m in BATTERY_METRICS if (df["metric"] == m).any()]
    if not metrics:
        return None
    fig = _figure(figsize=(11, 4))
    for i, m in enumerate(metrics):
        ax = fig.add_subplot(1, len(metrics), i + 1)
        rows = df[df["metric"] == m]
        devices = rows["device"].tolist()
        y = np.arange(len(devices))
        floor = 1e-5  # log axis: zero drains are drawn at the floor
        ax.hlines(y, rows["p50"].clip(lower=floor), rows["p99"].clip(lower=floor), color="C0", lw=4, alpha=0.4, label="p50–p99")
        ax.plot(rows["mean"].clip(lower=floor), y, "o", color="C0", label="mean")
        ax.plot(rows["max"].clip(lower=floor), y, "x", color="C3", label="max")
        budget = rows["_target_max"].dropna()
        if len(budget):
            ax.axvline(float(budget.iloc[0]), color="red", ls="--", label=f"budget {float(budget.iloc[0]):g}")
        ax.set_yticks(y, devices, fontsize=7)
        ax.set_xscale("log")
        ax.set_title(BATTERY_METRICS[m], fontsize=9)
        ax.set_xlabel("% of battery")
        if i == 0:
            ax.legend(fontsize=6)
    fig.suptitle("Battery budget per person-day", fontsize=10)
    fig.tight_layout()
    return fig


def energy(t: dict):
    """Where the app's energy goes: each effect's share of it (first arm, replication 1)."""
    if "energy" not in t:   # a run without the file (a run of no app writes none)
        return None
    e = t["energy"]
    e = e[(e["replication"] == "1") & (e["arm"] == e["arm"].iloc[0])].sort_values("share")
    if e.empty:
        return None
    fig = _figure(figsize=(7, 0.3 * len(e) + 1.5))
    ax = fig.add_subplot(111)
    ax.barh(e["activity"], e["share"])
    ax.set_xlabel("share of the app's energy")
    ax.set_title("Where the energy goes", fontsize=9)
    ax.tick_params(axis="y", labelsize=7)
    fig.tight_layout()
    return fig


def experiment(t: dict):
    """Paired differences arm − control per KPI with 95 % intervals, beside the unpaired interval."""
    if "experiment" not in t:
        return None
    df = t["experiment"].dropna(subset=["diff"])
    df = df[df["unit"].isin(["fraction", "count_per_day", "minutes"])]
    if df.empty:
        return None
    arms = list(dict.fromkeys(df["arm"]))
    kpis = list(dict.fromkeys(df["kpi"]))
    fig = _figure(figsize=(10, 0.32 * len(kpis) * len(arms) + 1.5))
    ax = fig.add_subplot(111)
    y = 0
    ticks, labels = [], []
    for kpi in kpis:
        for j, arm in enumerate(arms):
            r = df[(df["kpi"] == kpi) & (df["arm"] == arm)]
            if r.empty:
                continue
            r = r.iloc[0]
            scale = abs(r["control_mean"]) if r["control_mean"] else 1.0
            rel = lambda v: v / scale if pd.notna(v) else np.nan  # noqa: E731
            ax.plot([rel(r["unpaired_ci_low"]), rel(r["unpaired_ci_high"])], [y, y], color="grey", lw=6, alpha=0.3)
            ax.plot([rel(r["diff_ci_low"]), rel(r["diff_ci_high"])], [y, y], color=f"C{j}", lw=2)
            ax.plot(rel(r["diff"]), y, "o", color=f"C{j}")
            ticks.append(y)
            labels.append(f"{kpi} [{arm}]" if len(arms) > 1 else kpi)
            y += 1
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(ticks, labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("difference arm − control, relative to the control mean")
    ax.set_title(f"Paired differences (95 % CI, coloured) vs unpaired (grey) — control: {df['control_arm'].iloc[0]}")
    fig.tight_layout()
    return fig


# forecast.csv's metrics as the specification describes its `metric` column: {metric: (label, unit)}.
FORECAST_METRICS = {v["value"]: (v["label"], v["unit"]) for v in spec.values("forecast", "metric")}


def forecast(t: dict):
    """Money (USD metrics) and people (count metrics) per month with 95 % bands, first arm. No target line: no file
    a run writes carries a forecast target (the specification's `targets_note`)."""
    if "forecast" not in t:
        return None
    df = t["forecast"]
    df = df[(df["month"] != "total") & (df["arm"] == df["arm"].iloc[0])]
    panels = [([m for m, (_, unit) in FORECAST_METRICS.items() if unit == wanted and (df["metric"] == m).any()], ylabel, title)
              for wanted, ylabel, title in [("usd", "USD", "Revenue forecast"), ("count", "people", "People forecast")]]
    panels = [p for p in panels if p[0]]
    if not panels:
        return None
    fig = _figure(figsize=(11, 4))
    for i, (metrics, ylabel, title) in enumerate(panels):
        ax = fig.add_subplot(1, len(panels), i + 1)
        for m in metrics:
            r = df[df["metric"] == m]
            ax.plot(r["month"], r["mean"], marker="o", label=FORECAST_METRICS[m][0])
            # Money and people cannot be negative: the band is drawn from zero up (few replications make it wide).
            ax.fill_between(r["month"], r["ci_low"].fillna(r["mean"]).clip(lower=0), r["ci_high"].fillna(r["mean"]), alpha=0.2)
        ax.set_ylabel(ylabel)
        ax.tick_params(axis="x", rotation=60, labelsize=7)
        ax.legend(fontsize=8)
        ax.set_title(title)
    fig.suptitle("Forecast by month, means with 95 % bands over replications", fontsize=10)
    fig.tight_layout()
    return fig


# unlocks.csv's methods, as the specification describes its `method` column (without `all`, their sum).
UNLOCK_METHODS = [m for m in spec.value_labels("unlocks", "method") if m != "all"]
ARM_STYLES = ["-", "--", ":", "-."]


def _series_style(i_series: int, i_arm: int, n_arms: int) -> dict:
    """One arm: a colour per series, solid. Several arms: a colour per arm, a line style per series."""
    if n_arms == 1:
        return dict(color=f"C{i_series}", ls="-")
    return dict(color=f"C{i_arm % 10}", ls=ARM_STYLES[i_series % len(ARM_STYLES)])


def _style_legend(ax, series: list, arms: list, colours: list | None = None, extra: tuple = ((), ()), **kwargs):
    """Legend of `_series_style` lines: series (and arms by colour when several), then `extra` (handles, labels)."""
    from matplotlib.lines import Line2D
    if len(arms) == 1:
        handles = [Line2D([], [], color=colours[i] if colours else f"C{i}") for i in range(len(series))]
        labels = list(series)
    else:
        handles = [Line2D([], [], color="black", ls=ARM_STYLES[i % len(ARM_STYLES)]) for i in range(len(series))]
        handles += [Line2D([], [], color=f"C{j % 10}", lw=4) for j in range(len(arms))]
        labels = list(series) + [f"arm {a}" for a in arms]
    return ax.legend(handles + list(extra[0]), labels + list(extra[1]), **kwargs)


def unlocks(t: dict):
    """Earned Access's unlocks.csv, per arm: (a) grants per person per day since install by method (credits, quest,
    emergency) and all methods; (b) Focus Bank credits earned, spent and expired (at the 04:00 day boundary) per person
    per day; (c) how quests and emergency waits end — the share completed and the share abandoned, over the run.

    Per person = per install whose day N lies in the run's horizon (the report's `people`, churned people included),
    computed per replication; lines are the mean over replications, the band their range (min–max: with a couple of
    replications a 95 % interval of a daily rate spans the whole axis). Days observed for fewer than half of the
    installs (late installs have short lives in the horizon) are shaded grey. One arm: a colour per series; several:
    a colour per arm and a line style per series. None for a run without unlocks.csv (products other than Earned
    Access)."""
    if "unlocks" not in t or t["unlocks"].empty:
        return None
    df = t["unlocks"]
    reps = df[df["replication"].astype(str) != "all"]
    if reps.empty:
        return None
    arms = list(dict.fromkeys(reps["arm"]))
    n_reps = reps["replication"].nunique()
    fig = _figure(figsize=(17, 4.6))
    a_ax, b_ax, c_ax = fig.subplots(1, 3, gridspec_kw={"width_ratios": [5, 5, 4]})

    def draw(ax, rows, column, style, label, band=True):
        rate = rows[column] / rows["people"].where(rows["people"] > 0)
        per_rep = rows.assign(rate=rate).pivot_table(index="day", columns="replication", values="rate")
        mean = per_rep.mean(axis=1)
        ax.plot(mean.index, mean.values, label=label, **style)
        if band and per_rep.shape[1] > 1:
            ax.fill_between(mean.index, per_rep.min(axis=1), per_rep.max(axis=1), color=style["color"], alpha=0.12, lw=0)

    every = spec.value_labels("unlocks", "method")["all"]
    grant_series = [spec.value_labels("unlocks", "method")[m] for m in UNLOCK_METHODS] + [every]
    credit_series = [(c, spec.label("unlocks", c)) for c in ["credits_earned", "credits_spent", "credits_expired"]]
    credit_colours = ["C2", "C0", "C3"]
    for j, arm in enumerate(arms):
        rows = reps[reps["arm"] == arm]
        for i, method in enumerate(UNLOCK_METHODS):
            draw(a_ax, rows[rows["method"] == method], "grants", _series_style(i, j, len(arms)), method)
        total = _series_style(len(UNLOCK_METHODS), j, len(arms))
        if len(arms) == 1:
            total = dict(color="black", ls="-", lw=0.9)
        draw(a_ax, rows[rows["method"] == "all"], "grants", total, every, band=False)
        for i, (column, label) in enumerate(credit_series):
            style = _series_style(i, j, len(arms))
            if len(arms) == 1:
                style["color"] = credit_colours[i]
            draw(b_ax, rows[rows["method"] == "all"], column, style, label)
    # Days most installs do not reach inside the horizon: few people, noisy rates.
    people = reps[reps["method"] == "all"].groupby("day")["people"].mean()
    thin = people[people < 0.5 * people.max()]
    for ax in (a_ax, b_ax):
        if len(thin):
            ax.axvspan(thin.index.min() - 0.5, people.index.max() + 0.5, color="grey", alpha=0.12, lw=0)
        ax.set_xlabel("day since install")
        ax.set_xlim(people.index.min() - 0.5, people.index.max() + 0.5)
        ax.set_ylim(bottom=0)
    a_ax.set_ylabel("unlocks granted per person")
    a_ax.set_title("(a) Grants per person per day, by method", fontsize=9)
    b_ax.set_ylabel("Focus Bank credits per person")
    b_ax.set_title("(b) Focus Bank credits per person per day", fontsize=9)
    from matplotlib.patches import Patch
    extra = ((), ())
    if len(thin):
        extra = ([Patch(color="grey", alpha=0.25)], [f"days < half the installs reach (≥ {thin.index.min()})"])
    _style_legend(a_ax, grant_series, arms, colours=["C0", "C1", "C2", "black"], extra=extra, fontsize=7, loc="upper right")
    _style_legend(b_ax, [label for _, label in credit_series], arms, colours=credit_colours, extra=extra, fontsize=7,
                  loc="upper right")

    # (c) How quests and emergency waits end: completed vs abandoned, over the run, per replication.
    y, ticks, labels = 0, [], []
    for method in ["quest", "emergency"]:
        for j, arm in enumerate(arms):
            rows = reps[(reps["arm"] == arm) & (reps["method"] == method)]
            sums = rows.groupby("replication")[["completed", "abandoned", "attempts"]].sum()
            finished = sums["completed"] + sums["abandoned"]
            share = (sums["completed"] / finished.where(finished > 0)).dropna()
            ticks.append(y)
            labels.append(f"{method if len(arms) == 1 else f'{method} [{arm}]'}\n{sums['attempts'].mean():.0f} attempts"
                          + ("/replication" if len(sums) > 1 else ""))
            if share.empty:
                c_ax.text(0.02, y, "no attempts", va="center", fontsize=7, color="grey")
                y += 1
                continue
            done = share.mean()
            half = share.std() / np.sqrt(len(share)) * _t95(len(share)) if len(share) > 1 else 0.0
            c_ax.barh(y, done, 0.6, color="tab:green", alpha=0.8, label="completed" if y == 0 else None)
            c_ax.barh(y, 1 - done, 0.6, left=done, color="tab:red", alpha=0.6, label="abandoned" if y == 0 else None)
            if half > 0:
                c_ax.errorbar(done, y, xerr=half, color="black", capsize=3, lw=1,
                              label="95 % CI over replications" if y == 0 else None)
            c_ax.text(0.02, y - 0.15, f"{done:.0%} completed", va="center", fontsize=8, color="white", fontweight="bold")
            c_ax.text(0.98, y - 0.15, f"{1 - done:.0%} abandoned", va="center", ha="right", fontsize=8, color="white",
                      fontweight="bold")
            y += 1
    c_ax.set_yticks(ticks, labels, fontsize=8)
    c_ax.invert_yaxis()
    c_ax.set_xlim(0, 1)
    c_ax.set_xlabel("share of the attempts that ended (completed or abandoned)", fontsize=8)
    c_ax.set_title("(c) How quests and emergency waits end", fontsize=9)
    c_ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=3, frameon=False)
    fig.suptitle(f"Earned Access unlocks (unlocks.csv) — per install observed that day, mean of {n_reps} replication"
                 f"{'s' if n_reps != 1 else ''}{' (band: their range)' if n_reps > 1 else ''}", fontsize=10)
    fig.tight_layout()
    return fig


def revenue(t: dict):
    """revenue.csv, per arm: net revenue per month by source (stacked), the run's money columns — gross, refunds,
    store fee, net: every usd column the specification lists, in file order — with 95 % intervals over replications,
    and paying people per month by source.

    Means over the run's replications; a replication without a row for a month (no money that month) counts as 0.
    One arm: a colour per source. Several: a colour per arm (bars side by side, legend below the figure) and a hatch
    (bars) or line style (paying people) per source. None when the run has no money at all."""
    if "revenue" not in t:
        return None
    df = t["revenue"]
    rows = df[df["replication"].astype(str) != "all"]
    if rows.empty:
        return None
    replications = _replications(t, rows)
    arms = list(dict.fromkeys(t["kpis"]["arm"])) if "kpis" in t else []
    arms = arms or list(dict.fromkeys(rows["arm"]))
    several = len(arms) > 1
    sources = list(dict.fromkeys(rows["source"]))
    monthly = rows[rows["month"] != "total"]
    months = sorted(monthly["month"].unique())
    if months:  # months without money in any replication have no row: draw them as 0, not leave them out
        months = [str(m) for m in pd.period_range(months[0], months[-1], freq="M")]

    def per_replication(sub: pd.DataFrame, index: str, column: str, keys: list) -> pd.DataFrame:
        table = sub.pivot_table(index=index, columns="replication", values=column, aggfunc="sum")
        return table.reindex(index=keys, columns=replications).fillna(0.0)

    legend_rows = (len(arms) + 2) // 3 if several else 0
    fig = _figure(figsize=(17, 4.4 + 0.2 * legend_rows))
    m_ax, s_ax, p_ax = fig.subplots(1, 3, gridspec_kw={"width_ratios": [5, 3, 4]})
    x = np.arange(len(months))
    width = 0.8 / len(arms)
    hatches = ["", "//", "..", "xx", "\\\\", "oo"]
    for j, arm in enumerate(arms):
        bottom = np.zeros(len(months))
        for i, source in enumerate(sources):
            sub = monthly[(monthly["arm"] == arm) & (monthly["source"] == source)]
            net = per_replication(sub, "month", "net_usd", months).mean(axis=1).to_numpy()
            look = dict(color=f"C{i}")
            if several:
                look = dict(color=f"C{j % 10}", hatch=hatches[i % len(hatches)], edgecolor="white")
            m_ax.bar(x + j * width - 0.4 + width / 2, net, width, bottom=bottom, lw=0.3, **look)
            bottom += net
            paying = per_replication(sub, "month", "paying_people", months)
            p_ax.plot(months, paying.mean(axis=1), marker="o", **_series_style(i, j, len(arms)))
    from matplotlib.patches import Patch
    if several:
        m_ax.legend([Patch(facecolor="lightgrey", edgecolor="white", hatch=hatches[i % len(hatches)])
                     for i in range(len(sources))], sources, fontsize=7)
        fig.legend([Patch(color=f"C{j % 10}") for j in range(len(arms))], [f"arm {a}" for a in arms], fontsize=7,
                   loc="lower center", ncol=min(3, len(arms)), frameon=False)
    else:
        m_ax.legend([Patch(color=f"C{i}") for i in range(len(sources))], sources, fontsize=8)
    m_ax.set_xticks(x, months, rotation=60 if len(months) > 4 else 0, fontsize=7)
    m_ax.set_ylabel("net revenue, USD")
    m_ax.set_title("Net revenue per month by source", fontsize=9)

    totals = rows[rows["month"] == "total"]
    # Every money column of revenue.csv, in file order (gross, refunds, store fee, net), as the specification lists.
    parts = [(column, spec.label("revenue", column)) for column in spec.columns_with_unit("revenue", "usd") if column in rows.columns]
    # Gross blue and net green; the deductions and costs between and after in their own colours.
    part_colours = [{"gross_usd": "C0", "net_usd": "C2"}.get(column, ["C3", "C7", "C1", "C4", "C5"][k % 5]) for k, (column, _) in enumerate(parts)]
    for j, arm in enumerate(arms):
        sub = totals[totals["arm"] == arm]
        for k, (column, _) in enumerate(parts):
            per_rep = per_replication(sub, "arm", column, [arm])
            mean, half = _mean_band(per_rep)
            m, h = mean.iloc[0], half.iloc[0]
            # Money is not negative: the interval is drawn from zero up (few replications make it wide).
            yerr = [[min(h, m)], [h]] if h > 0 else None
            s_ax.bar(k + j * width - 0.4 + width / 2, m, width, yerr=yerr, capsize=3,
                     color=f"C{j % 10}" if several else part_colours[k])
    s_ax.set_xticks(range(len(parts)), [label for _, label in parts], fontsize=8)
    s_ax.set_ylabel("USD over the run")
    s_ax.set_title(f"Whole run: gross → net{' (95 % CI)' if len(replications) > 1 else ''}", fontsize=9)
    p_ax.set_ylabel("paying people")
    p_ax.set_ylim(bottom=0)
    p_ax.tick_params(axis="x", rotation=60 if len(months) > 4 else 0, labelsize=7)
    p_ax.set_title("Paying people per month by source", fontsize=9)
    if several:
        from matplotlib.lines import Line2D
        p_ax.legend([Line2D([], [], color="black", ls=ARM_STYLES[i % len(ARM_STYLES)]) for i in range(len(sources))],
                    sources, fontsize=7)
    else:
        _style_legend(p_ax, sources, arms, fontsize=7)
    name = product(t)
    fig.suptitle(f"Revenue{f' — {name}' if name else ''} (revenue.csv), mean of {len(replications)} replication"
                 f"{'s' if len(replications) != 1 else ''}", fontsize=10)
    fig.tight_layout(rect=(0, 0.045 * legend_rows, 1, 1))
    return fig

def _format(value: float, unit: str) -> str:
    if pd.isna(value):
        return "—"
    if unit == "usd":
        return f"${value:.2f}"
    if unit in ("fraction", "change", "ratio"):
        return f"{value:.3f}"
    return f"{value:.1f}"


def world_check(t: dict):
    """Each published figure's range as a band and the simulated mean with its 95 % interval (first arm).

    Figures have different units, so each row is drawn on its own scale: the band spans the published range
    (0 to 1 on the axis), the point sits where the simulated mean falls relative to it; the numbers are written
    beside. Figures the run cannot measure are listed with the reason."""
    if "worldcheck" not in t:
        return None
    df = t["worldcheck"]
    df = df[df["arm"] == df["arm"].iloc[0]]
    applies = df[df["applies"] == "yes"]
    skipped = df[df["applies"] != "yes"]
    if applies.empty:
        return None
    n = len(applies)
    fig = _figure(figsize=(11, 0.42 * n + 1.8 + 0.18 * len(skipped)))
    ax = fig.add_subplot(111)
    ax.axvspan(0, 1, color="tab:green", alpha=0.12, label="published range")
    for i, (_, r) in enumerate(applies.iterrows()):
        low, high = float(r["range_low"]), float(r["range_high"])
        width = high - low if high > low else max(abs(high), 1e-9)

        def pos(v):
            return (v - low) / width
        mean = r["simulated_mean"]
        inside = str(r["inside"]).lower() == "true"
        colour = "tab:green" if inside else "tab:red"
        x = np.clip(pos(mean), -1.5, 2.5) if not pd.isna(mean) else np.nan
        if not pd.isna(r["ci_low"]) and not pd.isna(r["ci_high"]):
            ax.plot(np.clip([pos(r["ci_low"]), pos(r["ci_high"])], -1.5, 2.5), [i, i], color=colour, lw=2)
        ax.plot([x], [i], "o", color=colour, ms=6)
        unit = r["unit"]
        ax.text(2.6, i, f"{_format(mean, unit)}  (range {_format(low, unit)}–{_format(high, unit)} {unit})",
                va="center", fontsize=7, color=colour)
    ax.set_yticks(range(n), [f"{r['figure']}" for _, r in applies.iterrows()], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(-1.6, 4.6)
    ax.set_xticks([-1, 0, 1, 2], ["low − width", "range low", "range high", "high + width"], fontsize=7)
    ax.axvline(0, color="tab:green", lw=0.6)
    ax.axvline(1, color="tab:green", lw=0.6)
    inside = (applies["inside"].astype(str).str.lower() == "true").sum()
    ax.set_title(f"World check — {inside} of {n} measurable figures inside their published ranges "
                 f"(arm {df['arm'].iloc[0]}; point = simulated mean, bar = 95 % CI)", fontsize=9)
    if len(skipped):
        note = "Not measurable in this run: " + "; ".join(f"{r['figure']} ({r['applies']})" for _, r in skipped.iterrows())
        import textwrap
        fig.text(0.01, 0.005, "\n".join(textwrap.wrap(note, 180)), fontsize=6, color="grey", va="bottom")
    fig.tight_layout(rect=(0, 0.02 + 0.012 * len(skipped), 1, 1))
    return fig


def load_calibration(cal_dir) -> pd.DataFrame:
    """A `habitat calibrate` folder's calibration.csv (every evaluation)."""
    path = Path(cal_dir) / "calibration.csv"
    if not path.is_file():
        raise FileNotFoundError(f"{cal_dir}: no calibration.csv — is this a `habitat calibrate` folder?")
    return pd.read_csv(path)


def calibration_trace(trace: pd.DataFrame):
    """Loss of every evaluation and the best loss so far (log scale), from calibration.csv."""
    if trace is None or trace.empty:
        return None
    fig = _figure(figsize=(9, 3.6))
    ax = fig.add_subplot(111)
    floor = max(trace["loss"][trace["loss"] > 0].min() if (trace["loss"] > 0).any() else 1e-6, 1e-6) / 2
    ax.plot(trace["evaluation"], trace["loss"].clip(lower=floor), ".", color="grey", label="loss of the evaluation")
    ax.plot(trace["evaluation"], trace["best_loss"].clip(lower=floor), "-", color="tab:blue", label="best so far")
    ax.set_yscale("log")
    ax.set_xlabel("evaluation (one simulation of the same people)")
    ax.set_ylabel("loss  Σ weight·miss²")
    ax.set_title("Calibration trace (GSL Nelder–Mead)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


# learning.csv's statuses of people ({status: label}) beside `all` (everyone): active, dormant, untreated (issue 28).
LEARNING_STATUSES = {k: v for k, v in spec.value_labels("learning", "status").items() if k != "all"}
# learning.csv's minutes a day in the target apps (issue 28): its one column in minutes.
LEARNING_MINUTES = spec.columns_with_unit("learning", "minutes")[0]


def learning_minutes(df: pd.DataFrame) -> pd.DataFrame | None:
    """learning.csv's rows (pooled) with the minutes a day in the target apps, by status other than `all`; None when
    the file lacks the column (runs written before issue 28) or has no such number."""
    if LEARNING_MINUTES not in df.columns:
        return None
    rows = df[df["status"].isin(list(LEARNING_STATUSES)) & df[LEARNING_MINUTES].notna()]
    return rows if len(rows) else None


def learning(t: dict):
    """learning.csv, week by week since install (week 1 on), per arm: the urges for the target apps of people still
    using the product against the urges the same people would have had untreated (1 = no change), the dormant
    people's share of the shields (everyone) and, where the file has it (issue 28), the minutes a day in the target
    apps by status (active, dormant, untreated: after the tenure ended, or no app). None without such rows (runs
    written before the file)."""
    if "learning" not in t or t["learning"].empty:
        return None
    df = _pooled(t["learning"])
    df = df[df["week_since_install"].astype(int) >= 1]
    if df.empty:
        return None
    arms = list(dict.fromkeys(df["arm"]))
    minutes = learning_minutes(df)
    learned = (df[df["status"] == "active"]["urges_vs_untreated"].notna().any()
               or df[df["status"] == "all"]["dormant_shield_share"].notna().any())
    panels = (2 if learned else 0) + (1 if minutes is not None else 0)
    if not panels:
        return None
    fig = _figure(figsize=(5.5 * panels, 4))
    axes = list(np.atleast_1d(fig.subplots(1, panels)))
    if learned:
        u_ax, d_ax = axes[0], axes[1]
        for j, arm in enumerate(arms):
            name = f"arm {arm}" if len(arms) > 1 else spec.value_labels("learning", "status")["active"]
            active = df[(df["arm"] == arm) & (df["status"] == "active")]
            u_ax.plot(active["week_since_install"].astype(int), active["urges_vs_untreated"].astype(float), marker="o",
                      color=f"C{j % 10}", label=name)
            every = df[(df["arm"] == arm) & (df["status"] == "all")]
            d_ax.plot(every["week_since_install"].astype(int), every["dormant_shield_share"].astype(float), marker="o",
                      color=f"C{j % 10}", label=f"arm {arm}" if len(arms) > 1 else spec.value_labels("learning", "status")["all"])
        u_ax.axhline(1.0, color="grey", lw=0.8, ls=":", label="untreated (no change)")
        u_ax.set_ylabel("urges ÷ untreated urges")
        u_ax.set_title("Urges for the target apps against the untreated rate", fontsize=9)
        d_ax.set_ylabel("dormant people's share of shields")
        d_ax.set_ylim(bottom=0)
        d_ax.set_title("Who meets the shields", fontsize=9)
    if minutes is not None:
        m_ax = axes[-1]
        for j, arm in enumerate(arms):
            for i, (status, name) in enumerate(LEARNING_STATUSES.items()):
                rows = minutes[(minutes["arm"] == arm) & (minutes["status"] == status)]
                if len(rows):
                    m_ax.plot(rows["week_since_install"].astype(int), rows[LEARNING_MINUTES].astype(float),
                              marker="o", color=f"C{j % 10}", ls=ARM_STYLES[i % len(ARM_STYLES)],
                              label=f"{arm}: {name}" if len(arms) > 1 else name)
        m_ax.set_ylabel("minutes a day in the target apps")
        m_ax.set_ylim(bottom=0)
        m_ax.set_title("Target-app minutes by status" + (" (colour: arm; line: status)" if len(arms) > 1 else ""),
                       fontsize=9)
    for ax in axes:
        ax.set_xlabel("week since install")
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.legend(fontsize=7)
    fig.suptitle("Learning (learning.csv), pooled over replications", fontsize=10)
    fig.tight_layout()
    return fig


# --- A product's AI cost (ai-cost.csv) and the person's things to do (tasks.csv), issue 29 -------------------------

AI_COST = spec.chart("ai-cost")
TASKS = spec.chart("tasks")


def ai_cost_rows(t: dict) -> pd.DataFrame | None:
    """ai-cost.csv's rows per replication (no pooled rows are written) with the targets the file carries
    (`file_targets`: the ceiling as `_target_max`, within it as `_target_met`) and the cost per DAU-day as a number
    (NaN without DAU-days); None without the file or rows."""
    if "aicost" not in t or t["aicost"].empty:
        return None
    df = t["aicost"]
    df = df[df["replication"].astype(str) != "all"]
    if df.empty:
        return None
    df = file_targets(df, "aicost")
    measure = spec.targets("aicost")["measure"]
    df[measure] = pd.to_numeric(df[measure], errors="coerce")
    return df


def ai_cost_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per arm, plan and month (`ai_cost_rows`): the mean over replications of the cost per DAU-day with the half-width
    of its 95 % interval, the ceiling the file carries, DAU-days, requests, cost and gross revenue (means), and
    whether the mean is within the ceiling (NaN without a ceiling or a cost)."""
    measure = spec.targets("aicost")["measure"]
    counts = [c for c in spec.columns_with_unit("aicost", "count") + spec.columns_with_unit("aicost", "usd")
              if c not in (measure, spec.targets("aicost").get("max"))]
    out = []
    for (arm, plan, month), sub in df.groupby(["arm", "plan", "month"], sort=False):
        per_rep = sub.set_index("replication")[[measure]].T
        mean, half = _mean_band(per_rep)
        ceiling = pd.to_numeric(sub["_target_max"], errors="coerce").max()
        row = {"arm": arm, "plan": plan, "month": month, measure: mean.iloc[0], "half": half.iloc[0],
               "ceiling": ceiling, "replications": int(sub[measure].notna().sum())}
        row.update({c: pd.to_numeric(sub[c], errors="coerce").mean() for c in counts})
        row["within"] = (row[measure] <= ceiling) if not (pd.isna(ceiling) or pd.isna(row[measure])) else np.nan
        out.append(row)
    return pd.DataFrame(out)


def ai_cost(t: dict):
    """ai-cost.csv, per arm: (a) the AI cost per DAU-day of each month by plan — mean over replications with its
    95 % interval — against the ceiling the file carries (none drawn where it carries none); (b) the AI requests per
    DAU-day behind it (splits, drafts) by plan and month. None without the file."""
    df = ai_cost_rows(t)
    if df is None:
        return None
    summary = ai_cost_summary(df)
    measure = spec.targets("aicost")["measure"]
    plans = list(dict.fromkeys(summary["plan"]))
    plan_labels = spec.value_labels("aicost", "plan")
    arms = list(dict.fromkeys(summary["arm"]))
    months = sorted(summary["month"].astype(str).unique())
    requests = [c for c in spec.columns_with_unit("aicost", "count") if c.endswith("_requests")]
    days = next(c for c in spec.columns_with_unit("aicost", "count") if c not in requests)
    fig = _figure(figsize=(15, 4.6))
    c_ax, r_ax = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    groups = [(arm, plan) for arm in arms for plan in plans]
    width = 0.8 / max(len(groups), 1)
    x = np.arange(len(months))
    for g, (arm, plan) in enumerate(groups):
        sub = summary[(summary["arm"] == arm) & (summary["plan"] == plan)].set_index("month").reindex(months)
        name = plan_labels.get(plan, plan) + (f" [{arm}]" if len(arms) > 1 else "")
        value, half = sub[measure].fillna(0).to_numpy(), sub["half"].fillna(0).to_numpy()
        # A cost is not negative: the interval is drawn from zero up (few replications make it wide).
        c_ax.bar(x - 0.4 + width * (g + 0.5), value, width, yerr=[np.minimum(half, value), half],
                 capsize=3, color=f"C{g % 10}", label=name)
        for k, v in enumerate(sub[measure]):
            if pd.isna(v):
                c_ax.text(x[k] - 0.4 + width * (g + 0.5), 0, "no\nDAU", ha="center", va="bottom", fontsize=6,
                          color="grey")
        for i, column in enumerate(requests):
            per_day = sub[column] / sub[days].where(sub[days] > 0)
            r_ax.bar(x - 0.4 + width * (g + 0.5), per_day.fillna(0), width,
                     bottom=sum((sub[c] / sub[days].where(sub[days] > 0)).fillna(0) for c in requests[:i]),
                     color=f"C{g % 10}", alpha=1.0 - 0.45 * i, hatch=["", "//"][i % 2], edgecolor="white",
                     label=f"{spec.label('aicost', column)}, {name}")
    ceilings = summary.groupby("month")["ceiling"].max().reindex(months)
    if ceilings.notna().any():
        c_ax.step(np.r_[x - 0.5, x[-1] + 0.5], np.r_[ceilings.values, ceilings.values[-1]], where="post",
                  color="tab:red", ls="--", lw=1.5, label=f"{spec.label('aicost', spec.targets('aicost')['max'])} "
                                                          f"(${ceilings.max():.5f})")
    c_ax.set_xticks(x, months, fontsize=8)
    c_ax.set_ylabel("USD per DAU-day")
    c_ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"${v:.5f}"))
    c_ax.set_title("(a) AI cost per DAU-day by month and plan against the ceiling (95 % CI over replications)",
                   fontsize=9)
    c_ax.legend(fontsize=7)
    r_ax.set_xticks(x, months, fontsize=8)
    r_ax.set_ylabel("AI requests per DAU-day")
    r_ax.set_title("(b) The requests behind it: " + " and ".join(spec.label("aicost", c) for c in requests)
                   + " (hatched) per DAU-day", fontsize=9)
    r_ax.legend(fontsize=7)
    n = df["replication"].nunique()
    name = product(t)
    fig.suptitle(f"AI cost{f' — {name}' if name else ''} (ai-cost.csv), mean of {n} replication{'s' if n != 1 else ''}",
                 fontsize=10)
    fig.tight_layout()
    return fig


def tasks_per_person(t: dict) -> pd.DataFrame | None:
    """tasks.csv per arm and day since install: each of the chart's series (arisen, captured, done, done on time,
    forgotten) per person — computed per replication (÷ the day's people), then the mean over replications and the
    half-width of its 95 % interval (columns `<series>` and `<series>_half`) — and the mean people behind the day.
    None without the file or rows."""
    if "tasks" not in t or t["tasks"].empty:
        return None
    df = t["tasks"]
    df = df[df["replication"].astype(str) != "all"]
    if df.empty:
        return None
    out = []
    for arm, rows in df.groupby("arm", sort=False):
        people = rows.pivot_table(index="day", columns="replication", values="people", aggfunc="sum")
        frame = pd.DataFrame(index=people.index)
        frame["arm"] = arm
        frame["people"] = people.mean(axis=1)
        for column in TASKS["y"]:
            counts = rows.pivot_table(index="day", columns="replication", values=column, aggfunc="sum")
            mean, half = _mean_band(counts / people.where(people > 0))
            frame[column], frame[f"{column}_half"] = mean, half
        out.append(frame.reset_index())
    return pd.concat(out, ignore_index=True)


def tasks(t: dict):
    """tasks.csv, per arm: the person's things to do per person per day since install — arisen, captured, done, done
    on time, forgotten (the chart's series, labelled as the specification labels them) — means over replications with
    95 % bands; days fewer than half the installs reach shaded grey. None without the file."""
    df = tasks_per_person(t)
    if df is None:
        return None
    arms = list(dict.fromkeys(df["arm"]))
    fig = _figure(figsize=(12, 4.6))
    ax = fig.add_subplot(111)
    series = [spec.label("tasks", c) for c in TASKS["y"]]
    for j, arm in enumerate(arms):
        rows = df[df["arm"] == arm]
        for i, column in enumerate(TASKS["y"]):
            style = _series_style(i, j, len(arms))
            ax.plot(rows["day"], rows[column], **style)
            ax.fill_between(rows["day"], rows[column] - rows[f"{column}_half"], rows[column] + rows[f"{column}_half"],
                            color=style["color"], alpha=0.12, lw=0)
    people = df.groupby("day")["people"].mean()
    thin = people[people < 0.5 * people.max()]
    from matplotlib.patches import Patch
    extra = ((), ())
    if len(thin):
        ax.axvspan(thin.index.min() - 0.5, people.index.max() + 0.5, color="grey", alpha=0.12, lw=0)
        extra = ([Patch(color="grey", alpha=0.25)], [f"days < half the installs reach (≥ {thin.index.min()})"])
    _style_legend(ax, series, arms, extra=extra, fontsize=7, loc="upper right")
    ax.set_xlabel("day since install")
    ax.set_ylabel("things to do per person")
    ax.set_ylim(bottom=0)
    ax.set_xlim(people.index.min() - 0.5, people.index.max() + 0.5)
    n = t["tasks"]["replication"].astype(str).nunique()
    fig.suptitle(f"Things to do per person per day since install (tasks.csv), mean of {n} replication"
                 f"{'s' if n != 1 else ''} with 95 % bands", fontsize=10)
    fig.tight_layout()
    return fig


# --- Products compared on the same people (product-comparison.csv, issue 28) -------------------------------------

# product-comparison.csv's kinds of KPI ({kind: label}: neutral, shared, claim), as the specification describes them.
PRODUCT_KINDS = spec.value_labels("products", "kind")
# Each figure of the file and the columns of its 95 % interval.
INTERVALS = {"mean": ("ci_low", "ci_high"), "vs_none_diff": ("vs_none_ci_low", "vs_none_ci_high"),
             "vs_first_diff": ("vs_first_ci_low", "vs_first_ci_high"),
             "true_effect": ("true_effect_ci_low", "true_effect_ci_high"),
             "true_effect_on_claim_basis": ("true_effect_on_claim_basis_ci_low", "true_effect_on_claim_basis_ci_high")}
# The effect-versus-cost view: which KPI is the effect and which the costs, with their labels (the specification's
# chart of the file: `effect`, `costs`).
PRODUCTS_CHART = next(c for c in spec.charts() if c["key"] == "products")


def claim_true_effect(r) -> tuple[float, float, float]:
    """A claim row's true effect (value, low, high) on the claim's own denominator (true_effect_on_claim_basis: per
    day in use, per day the app was opened; issue 39) — the figure to set beside the claim —, else, in a report
    written before that column, the true effect per person-day to the horizon."""
    if "true_effect_on_claim_basis" in r.index and not pd.isna(r["true_effect_on_claim_basis"]):
        return (r["true_effect_on_claim_basis"], r["true_effect_on_claim_basis_ci_low"], r["true_effect_on_claim_basis_ci_high"])
    return (r["true_effect"], r["true_effect_ci_low"], r["true_effect_ci_high"])


def product_rows(t: dict, persona: str | None = "all") -> pd.DataFrame | None:
    """product-comparison.csv's pooled rows (replication `all`, or empty) of `persona` (None: every persona), the
    numbers as floats; None without the file or such rows."""
    if "products" not in t:
        return None
    df = t["products"]
    replication = df["replication"]
    df = df[replication.isna() | replication.astype(str).str.strip().isin(["all", ""])].copy()
    if persona is not None:
        df = df[df["persona"].astype(str) == persona]
    if df.empty:
        return None
    for column in ["mean", "replications", *[c for pair in INTERVALS.values() for c in pair],
                   *INTERVALS]:
        if column in df.columns:   # true_effect_on_claim_basis: not in reports written before issue 39
            df[column] = pd.to_numeric(df[column], errors="coerce")
    return df


def comparison_arms(df: pd.DataFrame) -> list[str]:
    """The arms of product-comparison.csv's rows, in the file's (the scenario's) order."""
    return [str(a) for a in dict.fromkeys(df["arm"])]


def none_arm(df: pd.DataFrame) -> str | None:
    """The arm without an app the file compares against (its `none_arm`), None without one."""
    values = df["none_arm"].dropna().astype(str)
    values = values[values.str.strip() != ""]
    return values.iloc[0] if len(values) else None


def figure_of(df: pd.DataFrame, arm: str, kpi: str, measure: str = "mean", sign: float = 1.0):
    """(value, low, high) of one arm's KPI: `measure` (mean, vs_none_diff, vs_first_diff, true_effect) and its 95 %
    interval, times `sign` (the interval's ends swapped for −1); NaN where the file has none."""
    row = df[(df["arm"].astype(str) == arm) & (df["kpi"] == kpi)]
    if row.empty:
        return np.nan, np.nan, np.nan
    low, high = INTERVALS[measure]
    v, lo, hi = (float(row[c].iloc[0]) * sign for c in (measure, low, high))
    return (v, lo, hi) if sign >= 0 else (v, hi, lo)


def product_effects(df: pd.DataFrame) -> list[dict]:
    """The effects the effect-against-cost view shows for these rows of product-comparison.csv: the specification's
    `effect` (target-app minutes removed a day against no app), then each of its `further_effects` whose `products`
    include the product of one of the file's arms (issue 29: Nudge's things done on time a day more than without an
    app, where the run has a Nudge arm) and whose KPI the file has."""
    products = set(df["product"].dropna().astype(str)) if "product" in df.columns else set()
    kpis = set(df["kpi"].astype(str))
    further = [e for e in PRODUCTS_CHART.get("further_effects", [])
               if e["kpi"] in kpis and (not e.get("products") or products & set(e["products"]))]
    return [PRODUCTS_CHART["effect"], *further]


def effect_name(effect: dict) -> str:
    """"Effect" for the specification's `effect`; a further effect by its label's first words ("Things done on
    time"), so that its panels say which effect they set against the costs."""
    if effect is PRODUCTS_CHART["effect"]:
        return "Effect"
    words = effect["label"].split(":")[0]
    return words[:1].upper() + words[1:]


def effect_and_costs(df: pd.DataFrame, effect: dict | None = None) -> list[dict]:
    """Per arm with an app: the effect (`effect`, by default the specification's `effect`: target-app minutes
    removed a day against no app; or one of `product_effects`) and each cost (`costs`: battery against no app,
    money), each (value, low, high); arms without the effect left out."""
    effect, costs = effect or PRODUCTS_CHART["effect"], PRODUCTS_CHART["costs"]
    none = none_arm(df)
    points = []
    for arm in comparison_arms(df):
        if arm == none:
            continue
        e = figure_of(df, arm, effect["kpi"], effect["measure"], effect.get("sign", 1))
        if np.isnan(e[0]):
            continue
        points.append({"arm": arm, "effect": e,
                       "costs": [figure_of(df, arm, c["kpi"], c["measure"], c.get("sign", 1)) for c in costs]})
    return points


def _errors(values: list[tuple]) -> np.ndarray:
    """Error bar lengths (2 × n) from (value, low, high) triples; 0 where an end is missing."""
    v = np.array([x[0] for x in values], dtype=float)
    lo = np.array([x[1] for x in values], dtype=float)
    hi = np.array([x[2] for x in values], dtype=float)
    return np.nan_to_num(np.vstack([(v - lo).clip(min=0), (hi - v).clip(min=0)]))


def kpi_label(kpi: str, unit: str) -> str:
    """'pickups_per_day', 'count_per_day' → 'pickups per day (per day)'."""
    return f"{kpi.replace('_', ' ')} ({spec.unit_labels().get(unit, unit)})"


def product_comparison(t: dict):
    """product-comparison.csv (persona all): each KPI a panel with each arm's mean and 95 % interval (neutral
    KPIs, then the shared ones, an arm a colour); then effect against cost — the target-app minutes each product
    removes a day against no app (paired 95 % interval) against its battery cost and against its money — and each
    product's claim beside its true effect on the same people. None without the file."""
    df = product_rows(t)
    if df is None:
        return None
    arms = comparison_arms(df)
    colours = {arm: f"C{i % 10}" for i, arm in enumerate(arms)}
    kinds = [k for k in PRODUCT_KINDS if k != "claim" and (df["kind"] == k).any()]
    by_kind = {k: list(dict.fromkeys(df[df["kind"] == k]["kpi"])) for k in kinds}
    width = max([len(v) for v in by_kind.values()] + [5])
    claims = df[df["kind"] == "claim"]
    effects = product_effects(df)
    points = {e["kpi"]: effect_and_costs(df, e) for e in effects}
    fig = _figure(figsize=(3.4 * width, 3.3 * len(kinds) + 4.6))
    grid = fig.add_gridspec(len(kinds) + 1, width * 2, height_ratios=[1] * len(kinds) + [1.35])
    for r, kind in enumerate(kinds):
        for c, kpi in enumerate(by_kind[kind]):
            ax = fig.add_subplot(grid[r, 2 * c:2 * c + 2])
            rows = df[(df["kind"] == kind) & (df["kpi"] == kpi)]
            unit = str(rows["unit"].iloc[0])
            shown = [a for a in arms if a in set(rows["arm"].astype(str))]
            values = [figure_of(df[df["kind"] == kind], a, kpi) for a in shown]
            for i, (a, v) in enumerate(zip(shown, values)):
                if np.isnan(v[0]):
                    ax.text(i, 0, "—", ha="center", va="bottom", color="grey")
                    continue
                ax.errorbar([i], [v[0]], yerr=_errors([v]), fmt="o", color=colours[a], capsize=4, ms=7, lw=2)
            if all(np.isnan(v[0]) for v in values):
                ax.text(0.5, 0.5, "not measured in this run", transform=ax.transAxes, ha="center", color="grey",
                        fontsize=8)
            ax.set_xticks(range(len(shown)), shown, fontsize=7, rotation=15)
            ax.set_xlim(-0.6, len(shown) - 0.4)
            if unit == "fraction":
                ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
            ax.tick_params(axis="y", labelsize=7)
            ax.set_title(kpi_label(kpi, unit), fontsize=8)
            if c == 0:
                ax.set_ylabel(PRODUCT_KINDS[kind], fontsize=8)
    # Effect against cost: one panel per effect and cost, then the claims.
    costs = PRODUCTS_CHART["costs"]
    pairs = [(effect, k, cost) for effect in effects for k, cost in enumerate(costs)]
    spans = _bottom_spans(width * 2, len(pairs) + (1 if len(claims) else 0))
    for n, (effect, k, cost) in enumerate(pairs):
        ax = fig.add_subplot(grid[len(kinds), spans[n][0]:spans[n][1]])
        for p in points[effect["kpi"]]:
            x, y = p["costs"][k], p["effect"]
            if np.isnan(x[0]):
                continue
            ax.errorbar([x[0]], [y[0]], xerr=_errors([x]), yerr=_errors([y]), fmt="o", color=colours[p["arm"]],
                        capsize=4, ms=9, lw=2, label=p["arm"])
            k_arm = arms.index(p["arm"]) % 4   # arms at the same point: their names apart
            ax.annotate(p["arm"], (x[0], y[0]), textcoords="offset points", xytext=[(8, 6), (8, -12), (-8, 6),
                                                                                  (-8, -12)][k_arm],
                        ha="left" if k_arm < 2 else "right", fontsize=8, color=colours[p["arm"]])
        ax.axhline(0, color="grey", lw=0.8)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_xlabel(cost["label"], fontsize=8)
        ax.set_ylabel(effect.get("short", effect["label"]), fontsize=8)
        ax.tick_params(labelsize=7)
        ax.set_title(f"{effect_name(effect)} against {cost['label'].split(':')[0]} (95 % intervals)", fontsize=8)
    if len(claims):
        ax = fig.add_subplot(grid[len(kinds), spans[-1][0]:spans[-1][1]])
        labels = []
        for i, (_, r) in enumerate(claims.iterrows()):
            arm = str(r["arm"])
            claimed = (r["mean"], r["ci_low"], r["ci_high"])
            true = claim_true_effect(r)
            ax.errorbar([claimed[0]], [i - 0.15], xerr=_errors([claimed]), fmt="o", mfc="white", color=colours[arm],
                        capsize=4, ms=8, lw=2, label="claimed (the app's own figure)" if i == 0 else None)
            if not np.isnan(true[0]):
                ax.errorbar([true[0]], [i + 0.15], xerr=_errors([true]), fmt="D", color=colours[arm], capsize=4,
                            ms=7, lw=2, label="true effect, on the claim's denominator (same people, against no app)" if i == 0 else None)
            labels.append(f"{arm}\n{r['kpi'].replace('_', ' ')}")
        ax.set_yticks(range(len(claims)), labels, fontsize=7)
        ax.set_ylim(len(claims) - 0.5, -0.5 - 0.6)   # room for the legend above the first claim
        units = list(dict.fromkeys(claims["unit"].astype(str)))
        import textwrap
        statements = "\n".join(textwrap.wrap("; ".join(f"{r['arm']}: {r['claim']}" for _, r in claims.iterrows()
                                                    if isinstance(r["claim"], str)), 70))
        ax.set_xlabel(" / ".join(spec.unit_labels().get(u, u) for u in units) + ("\n" + statements if statements
                                                                                else ""), fontsize=7)
        ax.tick_params(axis="x", labelsize=7)
        ax.legend(fontsize=7, loc="upper center", ncol=1, frameon=False)
        ax.set_title("What each product claims, and its true effect", fontsize=8)
    none = none_arm(df)
    reps = df["replications"].max()
    fig.suptitle(f"Products compared on the same people (product-comparison.csv): means with 95 % intervals over "
                 f"{int(reps) if not np.isnan(reps) else '?'} replications"
                 + (f"; differences paired against {none}" if none else ""), fontsize=10)
    fig.tight_layout()
    return fig


def product_personas(rows: pd.DataFrame, kind: str = "neutral", measure: str = "vs_none_diff"):
    """product-comparison.csv by persona (`product_rows(t, persona=None)`): a panel per KPI of `kind`, a row per
    persona (all first), `measure` with its 95 % interval — by default each product's paired difference from the arm
    without an app; `mean` draws every arm's mean —, an arm a colour (the same as in `product_comparison`). None
    without such numbers."""
    if rows is None or rows.empty:
        return None
    none = none_arm(rows)
    arms = comparison_arms(rows)
    colours = {arm: f"C{i % 10}" for i, arm in enumerate(arms)}
    products = [a for a in arms if a != none or measure == "mean"]
    sub = rows[(rows["kind"] == kind) & rows["arm"].astype(str).isin(products)]
    products = [a for a in products if a in set(sub["arm"].astype(str))]
    if sub.empty or sub[measure].isna().all():
        return None
    personas = list(dict.fromkeys(rows["persona"].astype(str)))
    kpis = list(dict.fromkeys(sub["kpi"]))
    fig = _figure(figsize=(3.3 * len(kpis), 0.5 * len(personas) * max(len(products), 1) + 1.8))
    axes = np.atleast_1d(fig.subplots(1, len(kpis), sharey=True))
    step = 0.7 / max(len(products), 1)
    for ax, kpi in zip(axes, kpis):
        unit = str(sub[sub["kpi"] == kpi]["unit"].iloc[0])
        for j, arm in enumerate(products):
            values = [figure_of(sub[sub["persona"].astype(str) == p], arm, kpi, measure) for p in personas]
            y = np.arange(len(personas)) - 0.35 + step * (j + 0.5)
            ax.errorbar([v[0] for v in values], y, xerr=_errors(values), fmt="o", color=colours[arm], capsize=3,
                        ms=5, label=arm)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_title(kpi_label(kpi, unit), fontsize=8)
        ax.tick_params(labelsize=7)
        if unit == "fraction":
            ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=1))
    axes[0].set_yticks(range(len(personas)), personas, fontsize=8)
    axes[0].invert_yaxis()
    axes[0].legend(fontsize=7, loc="best")
    what = (f"each product − {none} on the same people (paired" if measure == "vs_none_diff" and none else
            f"{measure.replace('_', ' ')} per arm (")
    fig.suptitle(f"By persona: {what}, 95 % intervals; {PRODUCT_KINDS.get(kind, kind)})", fontsize=10)
    fig.tight_layout()
    return fig


def status_minutes(learning_rows: pd.DataFrame):
    """learning.csv's pooled rows (`_pooled(t["learning"])`), a panel per arm: the minutes a day in the target apps
    week by week, by status — people still using the product, dormant people, people without the app (after their
    tenure ended, or no app at all) — and everyone (grey, dashed); the person-days behind each week as bars. None
    when the file lacks the minutes (runs written before issue 28)."""
    if learning_rows is None or learning_rows.empty or learning_minutes(learning_rows) is None:
        return None
    arms = list(dict.fromkeys(learning_rows["arm"]))
    fig = _figure(figsize=(4.6 * len(arms), 4))
    axes = np.atleast_1d(fig.subplots(1, len(arms), sharey=True))
    labels = spec.value_labels("learning", "status")
    for ax, arm in zip(axes, arms):
        rows = learning_rows[learning_rows["arm"] == arm]
        days = ax.twinx()
        for i, status in enumerate(LEARNING_STATUSES):
            mine = rows[rows["status"] == status]
            if mine.empty:
                continue
            weeks = mine["week_since_install"].astype(int)
            ax.plot(weeks, mine[LEARNING_MINUTES].astype(float), marker="o", color=f"C{i + 2}",
                    label=labels[status])
            days.bar(weeks + (i - 1) * 0.22, mine["person_days"].astype(float), 0.22, color=f"C{i + 2}", alpha=0.15)
        everyone = rows[rows["status"] == "all"]
        ax.plot(everyone["week_since_install"].astype(int), everyone[LEARNING_MINUTES].astype(float),
                ls="--", color="grey", label=labels["all"])
        days.set_ylabel("person-days (bars)", fontsize=7, color="grey")
        days.tick_params(labelsize=7, colors="grey")
        ax.set_zorder(days.get_zorder() + 1)
        ax.patch.set_visible(False)
        ax.set_title(f"arm {arm}", fontsize=9)
        ax.set_xlabel("week since install")
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=7, loc="lower left")
    axes[0].set_ylabel("minutes a day in the target apps")
    fig.suptitle("Target-app minutes a day by status, week by week (learning.csv, pooled over replications)",
                 fontsize=10)
    fig.tight_layout()
    return fig


def _bottom_spans(columns: int, panels: int) -> list[tuple[int, int]]:
    """The grid columns of the bottom row's panels: `panels` about equal spans of `columns`."""
    edges = [round(columns * k / panels) for k in range(panels + 1)]
    return list(zip(edges[:-1], edges[1:]))


# Every figure of the specification's charts, in its order: (chart id, the function of its name). A chart the
# specification lists without a function here fails at import; test_report_spec.py fails on a figure function
# the specification does not list.
ALL = [(c["id"], globals()[spec.function_name(c["id"])]) for c in spec.charts()]


def skip_reason(name: str, t: dict) -> str:
    """Why figure `name` drew nothing for this run (for plot_run's note): its file is not in the run (written by
    other products, or under a condition the run does not meet), or the file has nothing to draw."""
    described = spec.chart(name)
    key = described["key"]
    if key not in t:
        entry = spec.by_key()[key]
        owners = spec.owners(entry)
        if owners is not None and product(t) not in owners:
            who = f"written by {', '.join(owners)} runs only; this run is {product(t) or 'of several products'}"
        else:
            who = f"written by {spec.spec()['written_when'][entry['written']]}; not in this run"
        return f"no {described['file']} ({who})"
    return "no money in this run" if spec.columns_with_unit(key, "usd") else "no data in this run"


def figure_is_empty(fig) -> bool:
    """True when no axes of the figure draws anything (no lines, patches, collections or images)."""
    for ax in fig.axes:
        if ax.lines or ax.patches or ax.collections or ax.images:
            return False
    return True


def assert_figures_drawn():
    """Fails if any figure made so far is empty (used by the notebooks' last cell and the test runner)."""
    empty = [i for i, f in enumerate(FIGURES) if figure_is_empty(f)]
    if not FIGURES:
        raise AssertionError("no figure was drawn")
    if empty:
        raise AssertionError(f"empty figure(s): {empty}")
    return len(FIGURES)
