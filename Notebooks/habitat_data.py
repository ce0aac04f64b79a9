"""A Habitat run's data, apart from its drawing (issue 42): loading and validating a run's CSV reports, and shaping
them for the charts — pooled rows, replication means with 95 % bands, the targets the run's own files carry, the
product comparison's figures — and, for the generic chart kinds (`lines`, `bars`), each chart's series as the
specification's chart entry describes them (`chart_series`, `bar_summary`).

habitat_plots (matplotlib: PNGs, notebooks), habitat_charts (Plotly: the page) and report_page (the page's tables)
take their data from here; none of them reads a CSV itself. Which files a run holds, their columns, which products
write them and which charts are drawn is the report specification's (docs/report-spec.json and each product folder's
fragment, through `report_spec`).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
import report_spec as spec  # noqa: E402

# The run's files by table key ("funnel" → "activation-funnel.csv"), as the specification names them.
REPORTS = {f["key"]: f["file"] for f in spec.files()}


# Written by every run, whatever the product (the specification's files written always, by every product).
REQUIRED = [f["key"] for f in spec.required(None)]


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


def run_conditions(run_dir) -> tuple[str, ...]:
    """The conditions of `written_when` a run meets that its shape (`run_shape`) does not say: "robustness" when it
    was run with --robustness (issue 45), read from experiment.csv's header (its robustness columns)."""
    path = Path(run_dir) / REPORTS["experiment"]
    found = []
    for group in spec.by_key()["experiment"].get("conditional_columns", []):
        try:
            with open(path, encoding="utf-8") as f:
                header = f.readline().rstrip("\r\n").split(",")
        except (OSError, UnicodeDecodeError):
            break
        if all(c["name"] in header for c in group["columns"]):
            found.append(group["written"])
    return tuple(found)


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


# Student's t, 0.975 quantile, by degrees of freedom 1…30 (the Swift side's `InverseCDF.studentT`, GSL).
_T975 = [12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
         2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
         2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272]


def _t95(n: int) -> float:
    """The t multiplier of a 95 % interval for the mean of `n` values: Student's t at n − 1 degrees of freedom, as
    the Swift reports compute it (`ShareInterval`, `Experiment`). Before issue 44 this read the table at n degrees of
    freedom, so every band over two replications was 4.303 wide instead of 12.706 (too narrow)."""
    df = int(n) - 1
    if df < 1:
        return float("nan")
    return _T975[df - 1] if df <= len(_T975) else 1.959964


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


# battery-budget.csv's metrics ({metric: label}), as the specification describes its `metric` column.
BATTERY_METRICS = spec.value_labels("battery", "metric")


# forecast.csv's metrics as the specification describes its `metric` column: {metric: (label, unit)}.
FORECAST_METRICS = {v["value"]: (v["label"], v["unit"]) for v in spec.values("forecast", "metric")}


def load_calibration(cal_dir) -> pd.DataFrame:
    """A `habitat calibrate` folder's calibration.csv (every evaluation)."""
    path = Path(cal_dir) / "calibration.csv"
    if not path.is_file():
        raise FileNotFoundError(f"{cal_dir}: no calibration.csv — is this a `habitat calibrate` folder?")
    return pd.read_csv(path)


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


def kpi_label(kpi: str, unit: str) -> str:
    """'pickups_per_day', 'count_per_day' → 'pickups per day (per day)'."""
    return f"{kpi.replace('_', ' ')} ({spec.unit_labels().get(unit, unit)})"


def skip_reason(name: str, t: dict) -> str:
    """Why figure `name` drew nothing for this run (for plot_run's note): its file is not in the run (written by
    other products, or under a condition the run does not meet), a histogram's run has too few replications, or the
    file has nothing to draw."""
    described = spec.chart(name)
    key = described["key"]
    if key not in t:
        entry = spec.by_key()[key]
        if entry["products"] != "all" and not spec.written_by(entry, product(t)):
            who = f"written by {spec.writers(entry)} only; this run is {product(t) or 'of several products'}"
        else:
            who = f"written by {spec.spec()['written_when'][entry['written']]}; not in this run"
        return f"no {described['file']} ({who})"
    if described["kind"] == "histogram":
        summary = histogram_summary(t, described)
        if summary is not None and not summary["enough"]:
            return histogram_too_few(summary)
    return "no money in this run" if spec.columns_with_unit(key, "usd") else "no data in this run"


# --- The generic chart kinds' data (issue 42): any file the specification describes, from its chart entry ----------


def chart_rows(t: dict, chart: dict) -> pd.DataFrame | None:
    """The rows a generic chart reads: its file's (`chart["key"]`) pooled rows (`over`: pooled) or the rows of each
    replication (`over`: replications, the default), without the x values it leaves out (`except_x`, e.g. a month
    `total`); None without the file or such rows."""
    df = t.get(chart["key"])
    if df is None or len(df) == 0:
        return None
    df = _pooled(df) if chart.get("over") == "pooled" else df[df["replication"].astype(str) != "all"]
    if chart.get("except_x"):
        df = df[~df[chart["x"]].astype(str).isin(chart["except_x"])]
    return df if len(df) else None


def panel_series(chart: dict, panel: dict, df: pd.DataFrame) -> list[tuple[str, str | None, str]]:
    """(column, series value or None, label) of each series a panel draws: each of its `y` columns, split by the
    values of its `series` column (the specification's values in order, then any other the rows hold; without those
    of `except`), labelled as the specification labels them."""
    key = chart["key"]
    ys = panel["y"] if isinstance(panel["y"], list) else [panel["y"]]
    if not panel.get("series"):
        return [(y, None, spec.label(key, y)) for y in ys]
    named = spec.value_labels(key, panel["series"])
    present = [str(v) for v in dict.fromkeys(df[panel["series"]].astype(str))]
    values = [v for v in list(named) + present if v not in panel.get("except", [])]
    values = [v for v in dict.fromkeys(values) if v in present]
    return [(y, v, named.get(v, v) if len(ys) == 1 else f"{spec.label(key, y)}, {named.get(v, v)}")
            for y in ys for v in values]


def _where(df: pd.DataFrame, panel: dict, series: str | None, value: str | None) -> pd.DataFrame:
    for column, wanted in (panel.get("where") or {}).items():
        df = df[df[column].astype(str) == str(wanted)]
    if series is not None and value is not None:
        df = df[df[series].astype(str) == value]
    return df


def chart_series(t: dict, chart: dict) -> list[dict] | None:
    """Every series of a `lines` chart, per panel and arm: dicts of panel (its index), arm, column, value (of the
    series column, or None), label, x, mean and half (the half-width of its 95 % interval over replications; 0 for
    pooled rows or one replication). Over replications each replication's value at x is summed over its rows and
    divided by the panel's `per` column (per person: ÷ people), then the mean over replications is taken (`_mean_band`);
    pooled, the pooled row's value. x in sorted order. None without rows."""
    df = chart_rows(t, chart)
    if df is None:
        return None
    x = chart["x"]
    xs = sorted(df[x].unique())
    out = []
    for arm in dict.fromkeys(df["arm"]):
        rows_of_arm = df[df["arm"] == arm]
        for i, panel in enumerate(chart["panels"]):
            if panel.get("draw") == "shares":
                continue   # `share_summary`
            for column, value, label in panel_series(chart, panel, df):
                rows = _where(rows_of_arm, panel, panel.get("series"), value)
                if rows.empty:
                    continue
                if chart.get("over") == "pooled":
                    y = pd.to_numeric(rows.set_index(x)[column], errors="coerce").reindex(xs)
                    mean, half = y, y * 0.0
                else:
                    values = rows.pivot_table(index=x, columns="replication", values=column, aggfunc="sum")
                    if panel.get("per"):
                        per = rows.pivot_table(index=x, columns="replication", values=panel["per"], aggfunc="sum")
                        values = values / per.where(per > 0)
                    mean, half = _mean_band(values)
                out.append({"panel": i, "arm": str(arm), "column": column, "value": value, "label": label,
                            "x": np.asarray(mean.index), "mean": mean.to_numpy(dtype=float),
                            "half": half.to_numpy(dtype=float)})
    return out or None


def chart_ceiling(t: dict, chart: dict) -> float | None:
    """The ceiling a generic chart's file carries (`targets.max`, `file_targets`): its largest value, None where
    the file carries none."""
    df = chart_rows(t, chart)
    if df is None:
        return None
    ceiling = pd.to_numeric(file_targets(df, chart["key"])["_target_max"], errors="coerce").dropna()
    return float(ceiling.max()) if len(ceiling) else None


def thin_days(t: dict, chart: dict) -> pd.Series | None:
    """The mean of a chart's `shade_thin` column (people) by x, for the days fewer than half of the installs reach
    (late installs have short lives in the horizon): the mean by x of every x; None when the chart shades none."""
    df = chart_rows(t, chart)
    if df is None or not chart.get("shade_thin"):
        return None
    return df.groupby(chart["x"])[chart["shade_thin"]].mean()


def bar_summary(t: dict, chart: dict, i: int) -> pd.DataFrame | None:
    """A `bars` chart's panel `i` per arm, series value and x (in the file's order): each column's mean over
    replications (`mean`) and the half-width of its 95 % interval (`half`) — or, for a panel with `per`, the
    mean of the column ÷ the mean of `per` (requests per DAU-day: no interval) —, the ceiling the file carries at
    x and the replications with a value. None without rows."""
    df = chart_rows(t, chart)
    if df is None:
        return None
    panel = chart["panels"][i]
    x = chart["x"]
    out = []
    for column, value, label in panel_series(chart, panel, df):
        rows = _where(df, panel, panel.get("series"), value)
        rows = file_targets(rows, chart["key"])   # `table`: further columns' means over replications, for the tables
        for (arm, at), sub in rows.groupby(["arm", x], sort=False):
            y = pd.to_numeric(sub[column], errors="coerce")
            if panel.get("per"):
                per = pd.to_numeric(sub[panel["per"]], errors="coerce").mean()
                mean, half = (y.mean() / per if per and per > 0 else np.nan), 0.0
            else:
                m, h = _mean_band(sub.set_index("replication")[[column]].apply(pd.to_numeric, errors="coerce").T)
                mean, half = m.iloc[0], h.iloc[0]
            out.append({"arm": str(arm), "x": str(at), "column": column, "value": value, "label": label, "mean": mean,
                        "half": half, "ceiling": pd.to_numeric(sub["_target_max"], errors="coerce").max(),
                        "replications": int(y.notna().sum()),
                        **{f"table:{c}": pd.to_numeric(sub[c], errors="coerce").mean() for c in chart.get("table", [])}})
    return pd.DataFrame(out) if out else None


def _errors(values: list[tuple]) -> np.ndarray:
    """Error bar lengths (2 × n) from (value, low, high) triples; 0 where an end is missing."""
    v = np.array([x[0] for x in values], dtype=float)
    lo = np.array([x[1] for x in values], dtype=float)
    hi = np.array([x[2] for x in values], dtype=float)
    return np.nan_to_num(np.vstack([(v - lo).clip(min=0), (hi - v).clip(min=0)]))


def _bottom_spans(columns: int, panels: int) -> list[tuple[int, int]]:
    """The grid columns of the bottom row's panels: `panels` about equal spans of `columns`."""
    edges = [round(columns * k / panels) for k in range(panels + 1)]
    return list(zip(edges[:-1], edges[1:]))


def share_summary(t: dict, chart: dict, panel: dict) -> list[dict] | None:
    """A `shares` panel of a generic chart (how attempts end: its `of` columns, e.g. completed and abandoned), per
    value of its `series` column (its `values`) and arm: each replication's share of the first `of` column in their
    sum over the run, the mean over replications and the half-width of its 95 % interval, and the mean of its
    `count` column over replications (the attempts); None without rows."""
    df = chart_rows(t, chart)
    if df is None:
        return None
    first, *rest = panel["of"]
    out = []
    for value in panel["values"]:
        for arm in dict.fromkeys(df["arm"]):
            rows = df[(df["arm"] == arm) & (df[panel["series"]].astype(str) == value)]
            sums = rows.groupby("replication")[[*panel["of"], panel["count"]]].sum()
            ended = sums[panel["of"]].sum(axis=1)
            share = (sums[first] / ended.where(ended > 0)).dropna()
            half = share.std() / np.sqrt(len(share)) * _t95(len(share)) if len(share) > 1 else 0.0
            out.append({"value": value, "arm": str(arm), "share": share.mean() if len(share) else np.nan,
                        "half": half, "count": sums[panel["count"]].mean(), "replications": len(sums)})
    return out or None


def histogram_summary(t: dict, chart: dict) -> dict | None:
    """A `histogram` chart's data: from its file's per-replication rows (never the pooled `all` rows), per value of
    its `series` column (the specification's values in order, then any other the rows hold) and arm, how many
    replications have each value of its `x` column, from 0 to the largest value of its `x_max` column (the study's
    people), with the chart's mark for that value (`marks`: series, x, label) and the replications at or above it.
    A dict of `replications` (the fewest any arm has), `min_replications` (the chart's, else the kind's default),
    `enough`, `top` (the x axis' end) and `series` (dicts of value, label, arm, x, replications — the count at each
    x —, n, mean, mark, at_or_above, exactly); None without rows."""
    df = chart_rows(t, dict(chart, over="replications"))
    if df is None:
        return None
    x, column = chart["x"], chart["series"]
    counts = pd.to_numeric(df[x], errors="coerce")
    top = pd.to_numeric(df[chart["x_max"]], errors="coerce").max() if chart.get("x_max") else counts.max()
    top = int(max(top if pd.notna(top) else 0, counts.max() if counts.notna().any() else 0))
    xs = np.arange(top + 1)
    named = spec.value_labels(chart["key"], column)
    present = [str(v) for v in dict.fromkeys(df[column].astype(str))]
    values = [v for v in dict.fromkeys(list(named) + present) if v in present]
    marks = {str(m["series"]): m for m in chart.get("marks", [])}
    arms = [str(a) for a in dict.fromkeys(df["arm"].astype(str))]
    out = []
    for value in values:
        for arm in arms:
            rows = df[(df["arm"].astype(str) == arm) & (df[column].astype(str) == value)]
            k = pd.to_numeric(rows[x], errors="coerce").dropna().round().astype(int)
            mark = marks.get(value)
            out.append({"value": value, "label": named.get(value, value), "arm": arm, "x": xs,
                        "replications": k.value_counts().reindex(xs, fill_value=0).to_numpy(dtype=int),
                        "n": int(len(k)), "mean": float(k.mean()) if len(k) else np.nan, "mark": mark,
                        "at_or_above": int((k >= mark["x"]).sum()) if mark else None,
                        "exactly": int((k == mark["x"]).sum()) if mark else None})
    need = chart.get("min_replications", spec.spec()["chart_kinds"][chart["kind"]].get("defaults", {})
                     .get("min_replications", 20))
    replications = int(df.groupby("arm")["replication"].nunique().min())
    return {"replications": replications, "min_replications": int(need), "enough": replications >= need,
            "top": top, "series": out}


def histogram_too_few(summary: dict) -> str:
    """What a `histogram` chart says instead of drawing one when its run has too few replications."""
    n, need = summary["replications"], summary["min_replications"]
    return (f"A histogram needs many replications: this run has {n} replication{'s' if n != 1 else ''}, and at least "
            f"{need} are needed to show how often each count comes up. Run the scenario with more replications "
            f"(replications: in the scenario, or habitat run --replications).")


def histogram_mark_text(entry: dict, top: int) -> str | None:
    """A `histogram` panel's reading of its mark: how many replications reach it (at or above; "8 of 8 in 0.1 % of
    simulated studies"), or — a panel without a mark — the mean count; None without replications."""
    n = entry["n"]
    if not n:
        return None
    mark = entry["mark"]
    if not mark:
        return f"mean {entry['mean']:.2g} of {top} over {n} simulated studies"
    x = mark["x"]
    share = entry["at_or_above"] / n
    where = f"{x:g} of {top}" + ("" if x >= top else " or more")
    percent = f"{100 * share:.1f} %" if share >= 0.001 or share == 0 else f"{100 * share:.2f} %"
    text = (f"{where} in none of {n} simulated studies" if not entry["at_or_above"]
            else f"{where} in {percent} of simulated studies ({entry['at_or_above']} of {n})")
    if x < top:
        text += f"; exactly {x:g}: {100 * entry['exactly'] / n:.1f} %"
    return text


def x_order(chart: dict, xs) -> list:
    """The x values of a generic chart in the order to draw them: the specification's values of its x column where
    it names them (scans.csv's lighting: bright, indoor, dim, dark), then any other in sorted order; sorted
    otherwise (days, weeks, months)."""
    present = list(dict.fromkeys(xs))
    named = [v for v in spec.value_labels(chart["key"], chart["x"]) if v in present]
    return named + sorted(v for v in present if v not in named)


def scatter_summary(t: dict, chart: dict) -> list[dict] | None:
    """A `scatter` chart's points: from its file's per-replication rows (never the pooled `all` rows), per arm in
    the file's order, the mean over replications of its `x` column and of its `y` column, each with the half-width
    of its 95 % interval (`_mean_band`: 0 with one replication), the replications with both values, and the means of
    the chart's `table` columns. Dicts of arm, x, x_half, y, y_half, replications, table; None without rows. An arm
    whose replications have no x or y value (a share of nothing) has NaN means and is not drawn."""
    df = chart_rows(t, dict(chart, over="replications"))
    if df is None:
        return None
    out = []
    for arm, rows in df.groupby("arm", sort=False):
        values = rows.set_index(rows["replication"].astype(str))[[chart["x"], chart["y"]]].apply(pd.to_numeric, errors="coerce")
        mean, half = _mean_band(values.T)
        both = int(values.notna().all(axis=1).sum())
        out.append({"arm": str(arm), "x": float(mean[chart["x"]]), "x_half": float(half[chart["x"]]),
                    "y": float(mean[chart["y"]]), "y_half": float(half[chart["y"]]), "replications": both,
                    "table": {c: float(pd.to_numeric(rows[c], errors="coerce").mean()) for c in chart.get("table", [])}})
    return out or None


# --- Sensitivity, plausible sets and robustness (issue 45) ------------------------------------------------------------
# A `habitat sensitivity` folder (sensitivity.csv: one row per output × parameter), a `habitat calibrate --plausible N`
# folder (plausible-widths.csv) and a run with --robustness (robustness.csv, experiment.csv's robustness columns).

SENSITIVITY = spec.output("sensitivity")
TORNADO = SENSITIVITY["charts"][0]
QUANTITIES = {v["value"]: v["label"] for c in SENSITIVITY["columns"] if c["name"] == "quantity" for v in c["values"]}


def output_columns_of(output_id: str) -> list[dict]:
    """The columns (name, unit) a command's output with columns of its own has: the key columns unless `keys` is
    false, then its own."""
    o = spec.output(output_id)
    return (spec.spec()["key_columns"] if o.get("keys", True) else []) + o.get("columns", [])


def is_sensitivity_folder(folder) -> bool:
    """Whether `folder` is a `habitat sensitivity` folder (it holds sensitivity.csv)."""
    return (Path(folder) / SENSITIVITY["file"]).is_file()


def load_sensitivity(folder) -> pd.DataFrame:
    """A `habitat sensitivity` folder's sensitivity.csv, read strictly (`read_checked` against the specification's
    `sensitivity` output): refused with `ReportError` naming the file and what is wrong."""
    path = Path(folder) / SENSITIVITY["file"]
    if not path.is_file():
        raise FileNotFoundError(f"{folder}: no {SENSITIVITY['file']} — is this a `habitat sensitivity` folder?")
    df = read_checked(path, columns=output_columns_of("sensitivity"),
                      rows_required="habitat sensitivity writes a row per output and parameter")
    return df.astype({c: str for c in ("arm", "control_arm", "product") if c in df.columns}).fillna(
        {"arm": "", "control_arm": "", "product": ""}).replace({"arm": {"nan": ""}, "control_arm": {"nan": ""},
                                                                "product": {"nan": ""}})


OUTPUT_KEYS = ["quantity", "arm", "kpi", "unit", "control_arm"]


def sensitivity_outputs(df: pd.DataFrame) -> list[dict]:
    """Every output of a sensitivity.csv ({quantity, arm, kpi, unit, control_arm}), in the order the tornado chart's
    `first` list says (the specification's: the paired differences first, then the world check's retention and
    revenue figures, the net revenue), then the file's order; outputs no parameter moves (every μ* or total index
    0) after all the others."""
    keys = df[OUTPUT_KEYS].astype(str)
    importance = pd.concat([df["mu_star"], df["st"]], axis=1).astype(float).abs().max(axis=1).fillna(0.0)
    moved = importance.groupby([keys[k] for k in OUTPUT_KEYS], sort=False).max() > 0
    outputs = [dict(zip(OUTPUT_KEYS, k)) for k in dict.fromkeys(map(tuple, keys.values))]

    def rank(o: dict) -> tuple[int, int]:
        unmoved = 0 if moved.get(tuple(o[k] for k in OUTPUT_KEYS), False) else 1   # outputs no parameter moves last
        for i, rule in enumerate(TORNADO.get("first", [])):
            if o["quantity"] == rule["quantity"] and rule.get("kpi_contains", "") in o["kpi"]:
                return unmoved, i
        return unmoved, len(TORNADO.get("first", []))
    return sorted(outputs, key=rank)


def output_label(o: dict) -> str:
    """An output in words: 'paired difference premium-599 − control: net_revenue_usd (USD)'."""
    unit = spec.unit_labels().get(o["unit"], o["unit"])
    if o["quantity"] == "paired_diff":
        return f"{o['kpi']} ({unit}): {o['arm']} − {o['control_arm']}"
    where = f" in {o['arm']}" if o["arm"] else ""
    kind = QUANTITIES.get(o["quantity"], o["quantity"])
    return f"{o['kpi']} ({unit}): {kind}{where}"


def tornado_summary(df: pd.DataFrame, o: dict, top: int | None = None) -> pd.DataFrame | None:
    """One output's parameters by importance, largest first (the top `top`, default the chart's): `parameter`,
    `method`, `value` (Morris's μ* or Sobol's total index), `low`, `high` (its 95 % interval), `direction` (+1 / −1 / 0:
    μ's sign, Morris; 0 for Sobol), `first_order` (Sobol's S1, else NaN), `rank`. None when the output is not there."""
    top = top or TORNADO.get("top", 10)
    mask = np.ones(len(df), dtype=bool)
    for k in OUTPUT_KEYS:
        mask &= df[k].astype(str).to_numpy() == str(o[k])
    rows = df[mask]
    if rows.empty:
        return None
    method = str(rows["method"].iloc[0])
    if method == "morris":
        value, low, high = rows["mu_star"], rows["mu_star_ci_low"], rows["mu_star_ci_high"]
        direction = np.sign(rows["mu"].astype(float).fillna(0.0))
        first = pd.Series(np.nan, index=rows.index)
    else:
        value, low, high = rows["st"], rows["st_ci_low"], rows["st_ci_high"]
        direction = pd.Series(0.0, index=rows.index)
        first = rows["s1"]
    out = pd.DataFrame({"parameter": rows["parameter"].astype(str), "method": method,
                        "value": value.astype(float), "low": low.astype(float), "high": high.astype(float),
                        "direction": direction.astype(float), "first_order": first.astype(float),
                        "rank": rows["rank"]})
    return out.sort_values("value", ascending=False, kind="stable").head(top).reset_index(drop=True)


def short_parameter(name: str) -> str:
    """A parameter's name without its `behavior.` prefix (the axis labels)."""
    return name.removeprefix("behavior.")


ROBUSTNESS_STATES = {"held": "the sign held", "flipped": "the sign flipped", "zero": "no difference (interval holds 0)"}


def robustness_strip(t: dict) -> dict | None:
    """robustness.csv as the verdict-by-world strip: `worlds` (0 the defaults, then the plausible worlds),
    `rows` (arm · KPI labels in experiment order), `arms` per row, `states` ([row][world]: held, flipped or zero —
    the world's paired interval holds 0), `diffs` ([row][world]: the difference) and `verdicts` (experiment.csv's
    robustness text per row, where it has the column). None without robustness.csv."""
    df = t.get("robustness")
    if df is None or df.empty:
        return None
    worlds = sorted(int(w) for w in df["world"].unique())
    arms = list(dict.fromkeys(df["arm"].astype(str)))
    keys = list(dict.fromkeys(zip(df["arm"].astype(str), df["kpi"].astype(str))))
    one_arm = len(arms) == 1
    rows, row_arms, states, diffs, verdicts = [], [], [], [], []
    exp = t.get("experiment")
    for arm, kpi in keys:
        sub = df[(df["arm"].astype(str) == arm) & (df["kpi"].astype(str) == kpi)].set_index("world")
        sub.index = sub.index.astype(int)
        line_states, line_diffs = [], []
        for w in worlds:
            if w not in sub.index:
                line_states.append(None)
                line_diffs.append(np.nan)
                continue
            r = sub.loc[w]
            low, high = float(r["diff_ci_low"]), float(r["diff_ci_high"])
            same = str(r["same_sign"]).strip().lower() == "true"
            zero = pd.notna(low) and pd.notna(high) and low <= 0 <= high
            line_states.append("zero" if zero else ("held" if same else "flipped"))
            line_diffs.append(float(r["diff"]))
        rows.append(kpi if one_arm else f"{arm} · {kpi}")
        row_arms.append(arm)
        states.append(line_states)
        diffs.append(line_diffs)
        verdict = None
        if exp is not None and "robustness" in exp.columns:
            match = exp[(exp["arm"].astype(str) == arm) & (exp["kpi"].astype(str) == kpi)]
            if not match.empty and pd.notna(match["robustness"].iloc[0]):
                verdict = str(match["robustness"].iloc[0])
        verdicts.append(verdict)
    return {"worlds": worlds, "rows": rows, "arms": row_arms, "states": states, "diffs": diffs,
            "verdicts": verdicts, "control": str(df["control_arm"].iloc[0])}


def load_plausible_widths(folder) -> pd.DataFrame:
    """A `habitat calibrate --plausible N` folder's plausible-widths.csv, read strictly."""
    o = spec.output("plausible-widths")
    path = Path(folder) / o["file"]
    if not path.is_file():
        raise FileNotFoundError(f"{folder}: no {o['file']} — is this a `habitat calibrate --plausible N` folder?")
    return read_checked(path, columns=output_columns_of("plausible-widths"),
                        rows_required="habitat calibrate --plausible writes a row per parameter")
