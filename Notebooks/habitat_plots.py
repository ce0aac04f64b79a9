"""Figures of a Habitat run, shared by the notebooks and by plot_run.py.

Every function takes a run directory's tables (see `load_run`) and returns a matplotlib figure, or None when the
run has no data for it (e.g. no experiment.csv without arms). Columns are those of docs/CONTRACT.md.
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
}
REQUIRED = ["funnel", "retention", "tokens", "revenue", "battery", "energy", "kpis"]

# Every figure made here, so that tests can check none is empty.
FIGURES: list = []


def default_run_dir() -> Path:
    """HABITAT_RUN_DIR, else Reports/scroll-off-baseline (what `make run` writes), relative to the repository."""
    env = os.environ.get("HABITAT_RUN_DIR")
    if env:
        return Path(env)
    here = Path.cwd()
    for base in [here, here.parent]:
        if (base / "Reports").is_dir():
            return base / "Reports" / "scroll-off-baseline"
    return Path("Reports/scroll-off-baseline")


def load_run(run_dir) -> dict:
    """Reads a run directory's CSV reports into DataFrames (keys of REPORTS; optional ones may be missing)."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise FileNotFoundError(f"{run_dir}: not a directory — run `make run` or `habitat run … --out {run_dir}` first")
    missing = [REPORTS[k] for k in REQUIRED if not (run_dir / REPORTS[k]).is_file()]
    if missing:
        raise FileNotFoundError(f"{run_dir}: missing {', '.join(missing)} — is this a habitat run directory?")
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
    """
    df = _pooled(t["funnel"])
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
    top.plot([], [], ls="--", **mark, label="step target (min): previous stage's share × target")
    if stages["target_max"].notna().any():
        top.plot([], [], ls=":", **mark, label="step target (max), shaded: target range")
    if (df["meets_target"].astype(str).str.lower() == "false").any():
        bottom.plot([], [], ls="none", marker="$✗$", color="red", label="misses its step target")
        bottom.legend(fontsize=8, loc="lower left")
    top.set_ylabel("share of installs\nreaching the stage")
    top.set_ylim(0, 1.12)
    top.set_title("Activation funnel (labels: conversion from the previous stage)")
    handles, labels = top.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda k: labels[k] not in arms)  # arms first, then the marks
    top.legend([handles[k] for k in order], [labels[k] for k in order], fontsize=8, loc="upper right")
    bottom.set_ylabel("conversion from the\nprevious stage")
    bottom.set_ylim(0, 1.12)
    bottom.set_xticks(x, [_stage_label(s, n) for s, n in zip(stages["stage"], stages["stage_name"])], fontsize=7)
    fig.tight_layout()
    return fig


def retention(t: dict):
    """Day-N retention of all installs with a 95 % band over replications, by persona and by plan; D1/D7/D30 marked.

    Panels use the `product_in_use` reading (the charter KPIs'); the first panel adds the `app_opened` reading
    dashed. Reports written before the `activity` column have one reading (app opened) and are drawn as such."""
    df = t["retention"]
    opened = None
    if "activity" in df.columns:
        opened = df[(df["activity"] == "app_opened") & (df["replication"] != "all") & (df["cohort"] == "all")]
        df = df[df["activity"] == "product_in_use"]
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
            ax.plot(g.index, g.values, ls="--", color="grey", label="all (opened the app)")
        for day, k in [(1, "d1_retention"), (7, "d7_retention_actives"), (30, "d30_retention_paid")]:
            ax.axvline(day, color="grey", lw=0.6, ls=":")
            if k in targets and p == 0:
                ax.plot(day, targets[k], marker="_", color="black", markersize=14)
        ax.set_xlabel("day since install")
        ax.set_ylabel("retention (product in use that day)" if opened is not None else "retention (opened the app that day)")
        ax.set_ylim(0, 1)
        ax.set_title(f"Retention, {title}")
        ax.legend(fontsize=7)
    fig.suptitle("Day-N retention, 95 % band over replications (— charter targets at D1/D7/D30)", fontsize=10)
    fig.tight_layout()
    return fig


def token_share(t: dict):
    """Monthly gross revenue by source (stacked), token share against its threshold, cap hits."""
    df = _pooled(t["tokens"])
    df = df[(df["month"] != "total") & (df["arm"] == df["arm"].iloc[0])]
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
    fig.suptitle("Battery budget per person-day (seed 000 §7.6)", fontsize=10)
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
        if i == 0:
            ax.axhline(20000, color="red", ls="--", lw=0.8, label="$20K MRR (seed 000 §4)")
        ax.set_ylabel(ylabel)
        ax.tick_params(axis="x", rotation=60, labelsize=7)
        ax.legend(fontsize=8)
        ax.set_title("Revenue forecast" if i == 0 else "People forecast")
    fig.suptitle("12-month forecast, means with 95 % bands over replications", fontsize=10)
    fig.tight_layout()
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


ALL = [("funnel", funnel), ("retention", retention), ("token-share", token_share), ("battery", battery),
       ("experiment", experiment), ("forecast", forecast), ("world-check", world_check)]


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
