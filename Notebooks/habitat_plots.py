"""Figures of a Habitat run, shared by the notebooks and by plot_run.py.

Every function takes a run directory's tables (see `load_run`) and returns a matplotlib figure, or None when the
run has no data for it (e.g. no experiment.csv without arms, no token-revenue-share.csv for Earned Access, no
unlocks.csv for Scroll Off). Columns are those of docs/CONTRACT.md.

Reports every product writes are REQUIRED; a product's own reports are in PRODUCT_REPORTS. Marks that come from the
Scroll Off charter (seed 000: the §8.2 funnel targets, the D1/D7/D30 retention targets, the $20K MRR goal) are drawn
only for Scroll Off runs (the `product` column).
"""
from __future__ import annotations

import os
from pathlib import Path

import matplotlib

if os.environ.get("MPLBACKEND") is None and not os.environ.get("DISPLAY"):
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

REPORTS = {
    "funnel": "activation-funnel.csv",
    "retention": "retention.csv",
    "tokens": "token-revenue-share.csv",
    "revenue": "revenue.csv",
    "battery": "battery-budget.csv",
    "energy": "energy-by-effect.csv",
    "kpis": "kpis.csv",
    "experiment": "experiment.csv",
    "forecast": "forecast.csv",
    "worldcheck": "world-check.csv",
    "unlocks": "unlocks.csv",
    "decisions": "decisions.csv",   # runs written before it lack it (the run's page then has no Decisions section)
    "learning": "learning.csv",     # issue 26; runs written before it lack it (no Learning section)
}
# Written by every run, whatever the product.
REQUIRED = ["funnel", "retention", "revenue", "battery", "energy", "kpis"]
# Written only by one product's runs (a run of that product without them is refused).
PRODUCT_REPORTS = {"scroll-off": ["tokens"], "earned-access": ["unlocks"]}
SCROLL_OFF = "scroll-off"

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
    else manifest.json's `product` or its resolved scenario's `product:` line; None when the run mixes products or
    none is found."""
    import json
    import re
    run_dir = Path(run_dir)
    kpis = run_dir / REPORTS["kpis"]
    if kpis.is_file():
        values = pd.read_csv(kpis, usecols=["product"])["product"].dropna().unique()
        if len(values):
            return str(values[0]) if len(values) == 1 else None
    manifest = run_dir / "manifest.json"
    if manifest.is_file():
        m = json.loads(manifest.read_text())
        if m.get("product"):
            return str(m["product"])
        found = re.search(r"^product:\s*\"?([\w-]+)", m.get("resolved_scenario", ""), re.MULTILINE)
        if found:
            return found.group(1)
    return None


def product(t: dict) -> str | None:
    """The product of a run's tables (see `run_product`): the one value of the `product` column, else None."""
    for key in ["kpis", "funnel", "retention", "revenue", "battery", "unlocks", "tokens", "worldcheck"]:
        if key in t and "product" in t[key].columns:
            values = t[key]["product"].dropna().unique()
            if len(values):
                return str(values[0]) if len(values) == 1 else None
    return None


def is_scroll_off(t: dict) -> bool:
    """Whether the Scroll Off charter's marks (seed 000) apply to this run."""
    return product(t) == SCROLL_OFF


def load_run(run_dir) -> dict:
    """Reads a run directory's CSV reports into DataFrames (keys of REPORTS; optional ones may be missing)."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise FileNotFoundError(f"{run_dir}: not a directory — run `make run` or `habitat run … --out {run_dir}` first")
    missing = [REPORTS[k] for k in REQUIRED if not (run_dir / REPORTS[k]).is_file()]
    if missing:
        raise FileNotFoundError(f"{run_dir}: missing {', '.join(missing)} — is this a habitat run directory?")
    name = run_product(run_dir)
    missing = [REPORTS[k] for k in PRODUCT_REPORTS.get(name, []) if not (run_dir / REPORTS[k]).is_file()]
    if missing:
        raise FileNotFoundError(f"{run_dir}: a {name} run without {', '.join(missing)}")
    tables = {}
    for key, name in REPORTS.items():
        path = run_dir / name
        if path.is_file():
            tables[key] = pd.read_csv(path, dtype={"replication": str, "month": str, "cohort": str, "arm": str})
    tables["dir"] = run_dir
    return tables


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


def funnel(t: dict):
    """Activation funnel, per arm: the share of installs reaching each stage (top) and each stage's conversion from
    the previous stage (bottom).

    The charter's stage targets are *step* conversions (stage users / previous stage users). On the top axis each is
    drawn where it applies — at the previous stage's height × the target, for each arm's bar — so a bar reaching its
    mark meets the target; on the bottom axis the targets are drawn as they are, against the step conversion. A
    stage with an upper bound (target_max) gets a dotted mark too and a shaded band between the two; a missed
    target is marked ✗ on the bottom axis.

    The targets are the Scroll Off charter's (seed 000 §8.2): they are drawn for Scroll Off runs only. Other products'
    funnels (Earned Access: E0…E9) are drawn with their own stages and no marks.
    """
    df = _pooled(t["funnel"])
    if not is_scroll_off({"funnel": df}):
        df = df.assign(target_min=np.nan, target_max=np.nan, meets_target=np.nan)
    arms = list(dict.fromkeys(df["arm"]))
    stages = df.drop_duplicates("stage_order").sort_values("stage_order")
    fig = _figure(figsize=(max(10, 1.15 * len(stages)), 7.5))
    top, bottom = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    width = 0.8 / len(arms)
    x = np.arange(len(stages))
    mark = dict(color="black", lw=1.2)
    for i, arm in enumerate(arms):
        rows = df[df["arm"] == arm].sort_values("stage_order").reset_index(drop=True)
        left = x + i * width - 0.4
        color = f"C{i}"
        bars = top.bar(left + width / 2, rows["rate_from_start"], width, label=arm, color=color)
        for b, r in zip(bars, rows["rate_from_previous"]):
            top.annotate(f"{r:.0%}", (b.get_x() + b.get_width() / 2, b.get_height()), ha="center", va="bottom", fontsize=7)
        bottom.bar(left + width / 2, rows["rate_from_previous"], width, color=color)
        for j, r in rows.iterrows():
            if j == 0 or pd.isna(r["target_min"]):
                continue
            previous = rows.loc[j - 1, "rate_from_start"]
            xs = [left[j], left[j] + width]
            lo, hi = r["target_min"], r["target_max"]
            top.plot(xs, [previous * lo] * 2, ls="--", **mark)
            bottom.plot(xs, [lo] * 2, ls="--", **mark)
            if pd.notna(hi):
                top.plot(xs, [previous * hi] * 2, ls=":", **mark)
                bottom.plot(xs, [hi] * 2, ls=":", **mark)
                top.fill_between(xs, previous * lo, previous * hi, color="grey", alpha=0.25, lw=0)
                bottom.fill_between(xs, lo, hi, color="grey", alpha=0.25, lw=0)
            if str(r["meets_target"]).lower() == "false":
                bottom.annotate("✗", (left[j] + width / 2, r["rate_from_previous"]), ha="center", va="bottom",
                                fontsize=9, color="red")
    if df["target_min"].notna().any():
        top.plot([], [], ls="--", **mark, label="step target (min): previous stage's share × target")
    if df["target_max"].notna().any():
        top.plot([], [], ls=":", **mark, label="step target (max), shaded: target range")
    if (df["meets_target"].astype(str).str.lower() == "false").any():
        bottom.plot([], [], ls="none", marker="$✗$", color="red", label="misses its step target")
        bottom.legend(fontsize=8, loc="lower left")
    top.set_ylabel("share of installs\nreaching the stage")
    top.set_ylim(0, 1.12)
    name = product(t)
    top.set_title(f"Activation funnel{f' — {name}' if name else ''} (labels: conversion from the previous stage)")
    handles, labels = top.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda k: labels[k] not in arms)  # arms first, then the marks
    top.legend([handles[k] for k in order], [labels[k] for k in order], fontsize=8, loc="upper right")
    bottom.set_ylabel("conversion from the\nprevious stage")
    bottom.set_ylim(0, 1.12)
    bottom.set_xticks(x, [_stage_label(s, n) for s, n in zip(stages["stage"], stages["stage_name"])], fontsize=7)
    fig.tight_layout()
    return fig


RETENTION_READINGS = {"product_in_use": "product in use that day", "app_opened": "opened the app that day"}


def retention(t: dict, activity: str = "product_in_use"):
    """Day-N retention of all installs with a 95 % band over replications, by persona and by plan; D1/D7/D30 marked.

    Panels use the `activity` reading — `product_in_use` (the charter KPIs', the default) or `app_opened`; the first
    panel adds the other reading dashed. Reports written before the `activity` column have one reading (app opened)
    and are drawn as such. The D1/D7/D30 targets are those of kpis.csv's Scroll Off retention KPIs, when present."""
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
    segments = sorted(allc["segment"].unique())
    plans = [s for s in segments if s in ("free", "premium", "pro")]
    personas = [s for s in segments if s not in plans and s != "all"]
    kpis = t["kpis"]
    targets = {}
    for k in ["d1_retention", "d7_retention_actives", "d30_retention_paid"]:
        row = kpis[(kpis["kpi"] == k) & (kpis["replication"] == "all")]
        if len(row) and pd.notna(row["target_min"].iloc[0]):
            targets[k] = row["target_min"].iloc[0]
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
        for day, k in [(1, "d1_retention"), (7, "d7_retention_actives"), (30, "d30_retention_paid")]:
            ax.axvline(day, color="grey", lw=0.6, ls=":")
            if k in targets and p == 0:
                ax.plot(day, targets[k], marker="_", color="black", markersize=14)
        ax.set_xlabel("day since install")
        ax.set_ylabel(f"retention ({RETENTION_READINGS[activity] if opened is not None else RETENTION_READINGS['app_opened']})")
        ax.set_ylim(0, 1)
        ax.set_title(f"Retention, {title}")
        ax.legend(fontsize=7)
    reading = RETENTION_READINGS[activity] if opened is not None else RETENTION_READINGS["app_opened"]
    fig.suptitle(f"Day-N retention ({reading}), 95 % band over replications"
                 + (" (— charter targets at D1/D7/D30)" if targets else ""), fontsize=10)
    fig.tight_layout()
    return fig


def token_share(t: dict):
    """Monthly gross revenue by source (stacked), token share against its threshold, cap hits (Scroll Off only:
    None for a run without token-revenue-share.csv, or whose first arm has no month with money)."""
    if "tokens" not in t:
        return None
    df = _pooled(t["tokens"])
    df = df[(df["month"] != "total") & (df["arm"] == df["arm"].iloc[0])]
    if df.empty:
        return None
    fig = _figure(figsize=(11, 4))
    ax = fig.add_subplot(121)
    months = df["month"].tolist()
    ax.bar(months, df["subscription_gross_usd"], label="subscriptions")
    ax.bar(months, df["token_gross_usd"], bottom=df["subscription_gross_usd"], label="emergency tokens")
    ax.bar(months, df["other_gross_usd"], bottom=df["subscription_gross_usd"] + df["token_gross_usd"], label="other")
    ax.set_ylabel("gross revenue, USD")
    ax.set_title("Revenue by source")
    ax.legend(fontsize=8)
    ax2 = fig.add_subplot(122)
    ax2.plot(months, df["token_share"], marker="o", label="token share")
    ax2.axhline(df["threshold"].iloc[0], color="red", ls="--", label=f"limit {df['threshold'].iloc[0]:.0%}")
    ax2.set_ylim(0, 1)
    ax2.set_ylabel("token share of gross revenue")
    ax3 = ax2.twinx()
    ax3.bar(months, df["cap_hits"], alpha=0.25, color="grey", label="cap hits")
    ax3.set_ylabel("token cap hits")
    ax2.set_title("Token revenue share and cap hits")
    ax2.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


def battery(t: dict):
    """Battery drain distribution by device against the budgets, and which effects spend the energy."""
    df = _pooled(t["battery"])
    df = df[df["arm"] == df["arm"].iloc[0]]
    metrics = ["idle_pct_per_hour", "active_pct_per_hour", "pct_per_24h"]
    fig = _figure(figsize=(14, 4))
    for i, m in enumerate(metrics):
        ax = fig.add_subplot(1, 4, i + 1)
        rows = df[df["metric"] == m]
        devices = rows["device"].tolist()
        y = np.arange(len(devices))
        floor = 1e-5  # log axis: zero drains are drawn at the floor
        ax.hlines(y, rows["p50"].clip(lower=floor), rows["p99"].clip(lower=floor), color="C0", lw=4, alpha=0.4, label="p50–p99")
        ax.plot(rows["mean"].clip(lower=floor), y, "o", color="C0", label="mean")
        ax.plot(rows["max"].clip(lower=floor), y, "x", color="C3", label="max")
        ax.axvline(rows["budget"].iloc[0], color="red", ls="--", label=f"budget {rows['budget'].iloc[0]:g}")
        ax.set_yticks(y, devices, fontsize=7)
        ax.set_xscale("log")
        ax.set_title(m.replace("_", " ").replace("pct", "%"), fontsize=9)
        ax.set_xlabel("% of battery")
        if i == 0:
            ax.legend(fontsize=6)
    e = t["energy"]
    e = e[(e["replication"] == "1") & (e["arm"] == e["arm"].iloc[0])].sort_values("share")
    ax = fig.add_subplot(1, 4, 4)
    ax.barh(e["activity"], e["share"])
    ax.set_xlabel("share of the app's energy")
    ax.set_title("Where the energy goes", fontsize=9)
    ax.tick_params(axis="y", labelsize=7)
    fig.suptitle("Battery budget per person-day" + (" (seed 000 §7.6)" if is_scroll_off(t) else ""), fontsize=10)
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


def forecast(t: dict):
    """MRR and active/paying people per month with 95 % bands."""
    if "forecast" not in t:
        return None
    df = t["forecast"]
    df = df[(df["month"] != "total") & (df["arm"] == df["arm"].iloc[0])]
    fig = _figure(figsize=(11, 4))
    for i, (metrics, ylabel) in enumerate([(["mrr_usd", "net_revenue_usd"], "USD"),
                                          (["installs", "active_people", "paying_people"], "people")]):
        ax = fig.add_subplot(1, 2, i + 1)
        for m in metrics:
            r = df[df["metric"] == m]
            ax.plot(r["month"], r["mean"], marker="o", label=m)
            # Money and people cannot be negative: the band is drawn from zero up (few replications make it wide).
            ax.fill_between(r["month"], r["ci_low"].fillna(r["mean"]).clip(lower=0), r["ci_high"].fillna(r["mean"]), alpha=0.2)
        if i == 0 and is_scroll_off(t):
            ax.axhline(20000, color="red", ls="--", lw=0.8, label="$20K MRR (seed 000 §4)")
        ax.set_ylabel(ylabel)
        ax.tick_params(axis="x", rotation=60, labelsize=7)
        ax.legend(fontsize=8)
        ax.set_title("Revenue forecast" if i == 0 else "People forecast")
    fig.suptitle("12-month forecast, means with 95 % bands over replications", fontsize=10)
    fig.tight_layout()
    return fig


UNLOCK_METHODS = ["credits", "quest", "emergency"]
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

    grant_series = UNLOCK_METHODS + ["all methods"]
    credit_series = [("credits_earned", "earned"), ("credits_spent", "spent on unlocks"), ("credits_expired", "expired at 04:00")]
    credit_colours = ["C2", "C0", "C3"]
    for j, arm in enumerate(arms):
        rows = reps[reps["arm"] == arm]
        for i, method in enumerate(UNLOCK_METHODS):
            draw(a_ax, rows[rows["method"] == method], "grants", _series_style(i, j, len(arms)), method)
        total = _series_style(len(UNLOCK_METHODS), j, len(arms))
        if len(arms) == 1:
            total = dict(color="black", ls="-", lw=0.9)
        draw(a_ax, rows[rows["method"] == "all"], "grants", total, "all methods", band=False)
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
    """revenue.csv, per arm: net revenue per month by source (stacked), the run's gross revenue split into store fee,
    refunds and net (95 % intervals over replications), and paying people per month by source.

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
    parts = [("gross_usd", "gross"), ("store_fee_usd", "store fee"), ("refunds_usd", "refunds"), ("net_usd", "net")]
    for j, arm in enumerate(arms):
        sub = totals[totals["arm"] == arm]
        for k, (column, _) in enumerate(parts):
            per_rep = per_replication(sub, "arm", column, [arm])
            mean, half = _mean_band(per_rep)
            m, h = mean.iloc[0], half.iloc[0]
            # Money is not negative: the interval is drawn from zero up (few replications make it wide).
            yerr = [[min(h, m)], [h]] if h > 0 else None
            s_ax.bar(k + j * width - 0.4 + width / 2, m, width, yerr=yerr, capsize=3,
                     color=f"C{j % 10}" if several else ["C0", "C7", "C3", "C2"][k])
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
    if unit in ("fraction", "ratio"):
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


ALL = [("funnel", funnel), ("retention", retention), ("token-share", token_share), ("revenue", revenue),
       ("unlocks", unlocks), ("battery", battery), ("experiment", experiment), ("forecast", forecast),
       ("world-check", world_check)]
# The report each figure needs beyond the common ones, to say why it is skipped.
NEEDS = {"token-share": "tokens", "unlocks": "unlocks", "experiment": "experiment", "forecast": "forecast",
         "world-check": "worldcheck"}


def skip_reason(name: str, t: dict) -> str:
    """Why figure `name` drew nothing for this run (for plot_run's note)."""
    key = NEEDS.get(name)
    if key and key not in t:
        owner = next((p for p, keys in PRODUCT_REPORTS.items() if key in keys), None)
        who = (f"written by {owner} runs only; this run is {product(t) or 'of several products'}"
               if owner and owner != product(t) else "not in this run")
        return f"no {REPORTS[key]} ({who})"
    return "no money in this run" if name in ("revenue", "token-share") else "no data in this run"


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
