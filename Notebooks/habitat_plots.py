"""Figures of a Habitat run (matplotlib), shared by the notebooks and by plot_run.py: drawing only.

Every function takes a run directory's tables (`habitat_data.load_run`, re-exported here with the data helpers the
notebooks use) and returns a matplotlib figure, or None when the run has no data for it. The data — loading,
validation, pooled rows, replication means and bands, targets — is habitat_data's (issue 42).

Which charts are drawn is the report specification's (docs/report-spec.json and each product folder's fragment,
through `report_spec`): a chart of a generic kind (`lines`, `bars`, `histogram`, `scatter`) is drawn by the one function of
its kind from the chart's entry (`lines`, `bars`, `histogram`, `scatter` here), a chart of a dedicated kind by the function of the kind's name (`ALL`,
`chart`). Targets, budgets, ceilings and ranges are those the run's own files carry; where no file carries one, none
is drawn.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import matplotlib

if os.environ.get("MPLBACKEND") is None and not os.environ.get("DISPLAY"):
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.lines  # noqa: E402
import matplotlib.patches  # noqa: E402
import matplotlib.colors  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import report_spec as spec  # noqa: E402
from habitat_data import *  # noqa: E402,F401,F403  (the data helpers, as before the split: hp.load_run, …)
from habitat_data import (_mean_band, _pooled, _replications, _t95, _rename_old_names, _not_what,  # noqa: E402,F401
                          chart_series, bar_summary, thin_days, chart_rows, chart_ceiling, share_summary, _errors, _bottom_spans,
                          histogram_summary, histogram_mark_text, scatter_summary, x_order, sensitivity_outputs,
                          tornado_summary, output_label, short_parameter, robustness_strip, ROBUSTNESS_STATES, TORNADO)

# Every figure made here, so that tests can check none is empty.
FIGURES: list = []


def _figure(*args, **kwargs):
    fig = plt.figure(*args, **kwargs)
    FIGURES.append(fig)
    return fig


def _stage_label(stage: str, name: str, width: int = 16) -> str:
    """'A1.5 Implementation intention created', wrapped onto lines of about `width` characters (nothing cut)."""
    import textwrap
    return "\n".join(textwrap.wrap(f"{stage} {name}", width=width, break_long_words=False))


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
    if "robustness" in df.columns:   # issue 45, a run with --robustness: each row's verdict across the plausible worlds
        labels = [f"{label}  [{v}]" if pd.notna(v) else label
                  for label, v in zip(labels, [df[((df["kpi"] == k) & (df["arm"] == a))]["robustness"].iloc[0]
                                               for k in kpis for a in arms if ((df["kpi"] == k) & (df["arm"] == a)).any()])]
    ax.set_yticks(ticks, labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("difference arm − control, relative to the control mean")
    ax.set_title(f"Paired differences (95 % CI, coloured) vs unpaired (grey) — control: {df['control_arm'].iloc[0]}")
    fig.tight_layout()
    return fig


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




# --- The generic chart kinds (issue 42): one function per kind draws any file the specification describes --------


def _shade_thin(ax, thin: pd.Series | None) -> tuple:
    """Shades the days fewer than half of the installs reach; the legend's (handles, labels) for it."""
    from matplotlib.patches import Patch
    if thin is None or thin.empty:
        return (), ()
    few = thin[thin < 0.5 * thin.max()]
    ax.set_xlim(thin.index.min() - 0.5, thin.index.max() + 0.5)
    if few.empty:
        return (), ()
    ax.axvspan(few.index.min() - 0.5, thin.index.max() + 0.5, color="grey", alpha=0.12, lw=0)
    return [Patch(color="grey", alpha=0.25)], [f"days < half the installs reach (≥ {few.index.min()})"]


def lines(t: dict, chart: dict):
    """A chart of kind `lines` (the specification's chart entry `chart`): a panel per entry of its `panels`, each
    series along x per arm — the mean over replications with its 95 % band, or the pooled rows —; a panel's
    `stacked` columns as stacked bars, its `bars` column as bars on a second axis, its `target` the ceiling the file
    carries. One arm: a colour per series; several: a colour per arm and a line style per series. None without
    rows."""
    series = chart_series(t, chart)
    if not series:
        return None
    panels = chart["panels"]
    arms = list(dict.fromkeys(s["arm"] for s in series))
    fig = _figure(figsize=(max(6.0 * len(panels), 11), 4.6))
    axes = list(np.atleast_1d(fig.subplots(1, len(panels))))
    thin = thin_days(t, chart)
    ceiling = chart_ceiling(t, chart)
    rows = chart_rows(t, chart)
    for i, (panel, ax) in enumerate(zip(panels, axes)):
        mine = [s for s in series if s["panel"] == i]
        labels = list(dict.fromkeys(s["label"] for s in mine))
        extra = ((), ())
        if panel.get("draw") == "shares":
            _shares(ax, share_summary(t, chart, panel) or [], panel, chart, arms)
        elif panel.get("stacked"):
            width = 0.8 / max(len(arms), 1)
            for j, arm in enumerate(arms):
                bottom = None
                for k, label in enumerate(labels):
                    s = next((s for s in mine if s["arm"] == arm and s["label"] == label), None)
                    if s is None:
                        continue
                    positions = np.arange(len(s["x"])) - 0.4 + width * (j + 0.5)
                    values = np.nan_to_num(s["mean"])
                    ax.bar(positions, values, width, bottom=bottom, color=f"C{k % 10}",
                           hatch=["", "//", "..", "xx", "\\\\"][j % 5], edgecolor="white" if j else None,
                           label=label if j == 0 else None)
                    bottom = values if bottom is None else bottom + values
                ax.set_xticks(np.arange(len(s["x"])), [str(v) for v in s["x"]], fontsize=8)
            ax.legend(fontsize=7)
        else:
            for s in mine:
                style = _series_style(labels.index(s["label"]), arms.index(s["arm"]), len(arms))
                ax.plot(s["x"], s["mean"], marker="o" if chart.get("over") == "pooled" else None, **style)
                if np.nanmax(np.nan_to_num(s["half"])) > 0:
                    ax.fill_between(s["x"], s["mean"] - s["half"], s["mean"] + s["half"], color=style["color"],
                                    alpha=0.12, lw=0)
            if panel.get("target") and ceiling is not None:
                ax.axhline(ceiling, color="red", ls="--")
                extra = ([matplotlib.lines.Line2D([], [], color="red", ls="--")],
                         [f"{spec.label(chart['key'], spec.targets(chart['key'])[panel['target']])} {ceiling:g}"])
            if panel.get("bars") and rows is not None:
                twin = ax.twinx()
                for j, arm in enumerate(arms):
                    sub = rows[rows["arm"] == arm].set_index(chart["x"]).reindex(sorted(rows[chart["x"]].unique()))
                    twin.bar(list(sub.index), pd.to_numeric(sub[panel["bars"]], errors="coerce").fillna(0),
                             alpha=0.25, color="grey" if len(arms) == 1 else f"C{j % 10}")
                twin.set_ylabel(spec.label(chart["key"], panel["bars"]))
            shaded = _shade_thin(ax, thin)
            extra = (list(extra[0]) + list(shaded[0]), list(extra[1]) + list(shaded[1]))
            _style_legend(ax, labels, arms, extra=extra, fontsize=7, loc="upper right")
            ax.set_ylim(bottom=0)
        ax.set_xlabel(panel.get("x_label", chart.get("x_label", chart["x"])))
        ax.set_ylabel(panel.get("y_label", ""))
        if panel.get("title"):
            ax.set_title(f"({chr(97 + i)}) {panel['title']}" if len(panels) > 1 else panel["title"], fontsize=9)
    n = len(_replications(t, t[chart["key"]]))
    fig.suptitle(f"{chart.get('title_png', chart['title'])}" + (f" — {n} replication{'s' if n != 1 else ''}"
                                                                  if chart.get("over") != "pooled" else ""), fontsize=10)
    fig.tight_layout()
    return fig


def _shares(ax, summary: list[dict], panel: dict, chart: dict, arms: list) -> None:
    """A `shares` panel: per value and arm, a horizontal bar split into the share of the first `of` column (green)
    and the rest (red), with the 95 % interval over replications, labelled with the attempts a replication."""
    first, *rest = panel["of"]
    ticks, labels = [], []
    for y, r in enumerate(summary):
        ticks.append(y)
        name = r["value"] if len(arms) == 1 else f"{r['value']} [{r['arm']}]"
        per = "/replication" if r["replications"] > 1 else ""
        labels.append(f"{name}\n{r['count']:.0f} {spec.label(chart['key'], panel['count'])}{per}")
        if pd.isna(r["share"]):
            ax.text(0.02, y, "none", va="center", fontsize=7, color="grey")
            continue
        done = r["share"]
        ax.barh(y, done, 0.6, color="tab:green", alpha=0.8, label=spec.label(chart["key"], first) if y == 0 else None)
        ax.barh(y, 1 - done, 0.6, left=done, color="tab:red", alpha=0.6,
                label=" / ".join(spec.label(chart["key"], c) for c in rest) if y == 0 else None)
        if r["half"] > 0:
            ax.errorbar(done, y, xerr=r["half"], color="black", capsize=3, lw=1,
                        label="95 % CI over replications" if y == 0 else None)
        ax.text(0.02, y - 0.15, f"{done:.0%} {spec.label(chart['key'], first)}", va="center", fontsize=8,
                color="white", fontweight="bold")
    ax.set_yticks(ticks, labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=3, frameon=False)


def bars(t: dict, chart: dict):
    """A chart of kind `bars` (the specification's chart entry `chart`): a panel per entry of its `panels`, a bar per
    arm and series value at each x — the mean over replications with its 95 % interval (drawn from zero up: a mean
    is not below zero here), or a `per` ratio of means, `stacked` columns one on another — and the ceiling the file
    carries (`target`) as a dashed step. None without rows."""
    summaries = [bar_summary(t, chart, i) for i in range(len(chart["panels"]))]
    if summaries[0] is None:
        return None
    panels = chart["panels"]
    fig = _figure(figsize=(max(7.5 * len(panels), 11), 4.6))
    axes = list(np.atleast_1d(fig.subplots(1, len(panels), gridspec_kw={"width_ratios": [3, 2][:len(panels)]}
                                           if len(panels) == 2 else None)))
    xs = x_order(chart, summaries[0]["x"])
    x = np.arange(len(xs))
    arms = list(dict.fromkeys(summaries[0]["arm"]))
    for i, (panel, ax, summary) in enumerate(zip(panels, axes, summaries)):
        if summary is None:
            continue
        values = list(dict.fromkeys(summary["value"]))
        groups = [(arm, v) for arm in arms for v in values]
        columns = list(dict.fromkeys(summary["column"]))
        width = 0.8 / max(len(groups), 1)
        for g, (arm, v) in enumerate(groups):
            bottom = np.zeros(len(xs))
            for k, column in enumerate(columns if panel.get("stacked") else columns[:1]):
                sub = summary[(summary["arm"] == arm) & (summary["value"] == v) & (summary["column"] == column)]
                sub = sub.set_index("x").reindex(xs)
                if sub["label"].isna().all():
                    continue
                label = sub["label"].dropna().iloc[0] + (f" [{arm}]" if len(arms) > 1 else "")
                mean, half = sub["mean"].fillna(0).to_numpy(dtype=float), sub["half"].fillna(0).to_numpy(dtype=float)
                ax.bar(x - 0.4 + width * (g + 0.5), mean, width, bottom=bottom,
                       yerr=None if panel.get("stacked") else [np.minimum(half, mean), half], capsize=3,
                       color=f"C{g % 10}", alpha=1.0 - 0.45 * k, hatch=["", "//"][k % 2] if panel.get("stacked") else "",
                       edgecolor="white" if panel.get("stacked") else None, label=label)
                bottom = bottom + mean
        if panel.get("target"):
            ceilings = summary.groupby("x")["ceiling"].max().reindex(xs)
            if ceilings.notna().any():
                ax.step(np.r_[x - 0.5, x[-1] + 0.5], np.r_[ceilings.values, ceilings.values[-1]], where="post",
                        color="tab:red", ls="--", lw=1.5,
                        label=f"{spec.label(chart['key'], spec.targets(chart['key'])[panel['target']])} ({ceilings.max():g})")
        ax.set_xticks(x, xs, fontsize=8)
        ax.set_xlabel(chart.get("x_label", chart["x"]))
        ax.set_ylabel(panel.get("y_label", ""))
        if panel.get("title"):
            ax.set_title(f"({chr(97 + i)}) {panel['title']}" if len(panels) > 1 else panel["title"], fontsize=9)
        ax.legend(fontsize=7)
    n = len(_replications(t, t[chart["key"]]))
    fig.suptitle(f"{chart.get('title_png', chart['title'])} — {n} replication{'s' if n != 1 else ''}", fontsize=10)
    fig.tight_layout()
    return fig


def histogram(t: dict, chart: dict):
    """A chart of kind `histogram` (the specification's chart entry `chart`): a panel per value of its `series`
    column, bars of how many replications (from the per-replication rows, never the pooled ones) have each value of
    its `x` column from 0 to the largest of its `x_max` column — an arm a colour, side by side —, the chart's mark for
    the panel as a dashed vertical line with its label, and the share of replications at or above it (a panel without
    a mark: the mean). None without rows, and None with fewer replications than the chart's `min_replications`
    (`skip_reason` says a histogram needs many: nothing is drawn from a handful)."""
    summary = histogram_summary(t, chart)
    if summary is None or not summary["enough"]:
        return None
    values = list(dict.fromkeys(s["value"] for s in summary["series"]))
    arms = list(dict.fromkeys(s["arm"] for s in summary["series"]))
    columns = min(len(values), 3)
    rows = -(-len(values) // columns)
    fig = _figure(figsize=(5.4 * columns, 4.3 * rows + 0.6))
    axes = list(np.atleast_1d(fig.subplots(rows, columns, squeeze=False).ravel()))
    top = summary["top"]
    width = 0.8 / max(len(arms), 1)
    for i, (value, ax) in enumerate(zip(values, axes)):
        mine = [s for s in summary["series"] if s["value"] == value]
        for s in mine:
            j = arms.index(s["arm"])
            bars_ = ax.bar(s["x"] - 0.4 + width * (j + 0.5), s["replications"], width, color=f"C{j % 10}",
                           alpha=0.85, label=f"arm {s['arm']}" if len(arms) > 1 else None)
            if len(arms) == 1:   # the count on each bar: 1 of 1000 is no visible bar
                ax.bar_label(bars_, labels=[str(v) if v else "" for v in s["replications"]], fontsize=6.5, padding=1,
                             bbox=dict(facecolor="white", edgecolor="none", pad=0.4), zorder=4)
        mark = mine[0]["mark"]
        if mark:
            ax.axvline(mark["x"], color="tab:red", ls="--", lw=1.5, label=mark["label"])
        reading = "\n".join(f"{'' if len(arms) == 1 else s['arm'] + ': '}{text}"
                             for s in mine if (text := histogram_mark_text(s, top)))
        ax.text(0.98, 0.97, reading, transform=ax.transAxes, ha="right", va="top", fontsize=7.5, wrap=True,
                bbox=dict(boxstyle="round", facecolor="white", edgecolor="#bbbbbb", alpha=0.9))
        ax.set_xlim(-0.6, top + 0.6)
        ax.set_xticks(range(top + 1))
        ax.set_ylim(0, max(max(int(s["replications"].max()) for s in mine), 1) * 1.45)
        ax.set_title(f"({chr(97 + i)}) {mine[0]['label']}", fontsize=9)
        ax.set_xlabel(chart.get("x_label", chart["x"]), fontsize=8)
        ax.set_ylabel(chart.get("y_label", "replications"), fontsize=8)
        if mark or len(arms) > 1:
            ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), frameon=False)
    for ax in axes[len(values):]:
        ax.set_visible(False)
    n = summary["replications"]
    fig.suptitle(f"{chart.get('title_png', chart['title'])} — {n} replications", fontsize=10)
    fig.tight_layout()
    return fig


def scatter(t: dict, chart: dict):
    """A chart of kind `scatter` (the specification's chart entry `chart`): one point per arm at the mean over
    replications of its `x` column against the mean of its `y` column (from the per-replication rows, never the
    pooled ones), with each mean's 95 % interval as error bars in both directions (one replication: the point
    alone), each point labelled with its arm (a swept arm's settings one a line); shares on percent axes from 0, their
    intervals drawn inside 0…1. No line joins the points. None without rows, or when no arm has both means."""
    points = [p for p in scatter_summary(t, chart) or [] if np.isfinite(p["x"]) and np.isfinite(p["y"])]
    if not points:
        return None
    fig = _figure(figsize=(9.5, 6.2))
    ax = fig.subplots()
    share = {c: spec.column(chart["key"], c).get("unit") == "fraction" for c in (chart["x"], chart["y"])}
    right = max(p["x"] + p["x_half"] for p in points)

    def bar(v: float, half: float, c: str):   # a share's interval drawn inside 0…1
        if not half:
            return None
        return [[min(half, v)], [min(half, max(1 - v, 0))]] if share[c] else half
    for j, p in enumerate(points):
        ax.errorbar(p["x"], p["y"], xerr=bar(p["x"], p["x_half"], chart["x"]), yerr=bar(p["y"], p["y_half"], chart["y"]),
                    fmt="o", ms=6, color=f"C{j % 10}", ecolor=f"C{j % 10}", elinewidth=1.2, capsize=3, alpha=0.9,
                    label=p["arm"])
        left = p["x"] > 0.7 * right
        ax.annotate(p["arm"].replace(";", "\n"), (p["x"], p["y"]), xytext=(-5 if left else 5, 4),
                    textcoords="offset points", ha="right" if left else "left", fontsize=7,
                    color=f"C{j % 10}")   # a swept arm's settings (a=1;b=2) one a line
    for axis, column in ((ax.xaxis, chart["x"]), (ax.yaxis, chart["y"])):
        if share[column]:
            axis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=None))
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    ax.set_xlabel(chart.get("x_label", spec.label(chart["key"], chart["x"])))
    ax.set_ylabel(chart.get("y_label", spec.label(chart["key"], chart["y"])))
    ax.grid(alpha=0.3)
    if len(points) > 1:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, title="arm", title_fontsize=7)
    n = max(p["replications"] for p in points)
    fig.suptitle(f"{chart.get('title_png', chart['title'])} — {n} replication{'s' if n != 1 else ''}"
                 + ("" if n > 1 else " (no interval)"), fontsize=10)
    fig.tight_layout()
    return fig


# --- Sensitivity and robustness (issue 45) ---------------------------------------------------------------------

SIGN_COLOURS = {1.0: "C0", -1.0: "C3", 0.0: "grey"}
SIGN_NAMES = {1.0: "raises the output (μ > 0)", -1.0: "lowers the output (μ < 0)", 0.0: "no net direction (μ = 0)"}
TORNADO_PANELS = 12


def tornado(t: dict, outputs: list | None = None, limit: int = TORNADO_PANELS):
    """sensitivity.csv's tornado charts (`t["sensitivity"]`): a panel per output — the first `limit` of `outputs`
    (default: every output in `sensitivity_outputs`' order, the paired differences first, then the world check's
    retention and revenue figures), leaving out outputs no parameter moves — each with its top parameters as
    horizontal bars, largest on top, and their 95 % intervals: Morris's μ* coloured by μ's sign, or Sobol's total
    index (dark) beside the first-order index (light). None without sensitivity.csv or with nothing moved."""
    df = t.get("sensitivity")
    if df is None or df.empty:
        return None
    outputs = outputs if outputs is not None else sensitivity_outputs(df)
    drawn = []
    for o in outputs:
        summary = tornado_summary(df, o)
        if summary is not None and (summary["value"].fillna(0).abs() > 0).any():
            drawn.append((o, summary))
        if len(drawn) == limit:
            break
    if not drawn:
        return None
    columns = min(3, len(drawn))
    rows = -(-len(drawn) // columns)
    longest = max(len(s) for _, s in drawn)
    fig = _figure(figsize=(5.2 * columns, (0.28 * longest + 1.3) * rows))
    for k, (o, summary) in enumerate(drawn):
        ax = fig.add_subplot(rows, columns, k + 1)
        summary = summary.iloc[::-1].reset_index(drop=True)
        y = np.arange(len(summary))
        low = (summary["value"] - summary["low"]).clip(lower=0).fillna(0)
        high = (summary["high"] - summary["value"]).clip(lower=0).fillna(0)
        if summary["method"].iloc[0] == "morris":
            colours = [SIGN_COLOURS[d] for d in summary["direction"]]
            ax.barh(y, summary["value"], color=colours, xerr=[low, high], ecolor="#333", capsize=2)
            ax.set_xlabel("μ* (mean |elementary effect|)", fontsize=8)
        else:
            ax.barh(y + 0.2, summary["value"], height=0.4, color="C0", xerr=[low, high], ecolor="#333", capsize=2,
                    label="total (ST)")
            ax.barh(y - 0.2, summary["first_order"], height=0.4, color="C1", alpha=0.7, label="first order (S1)")
            ax.set_xlabel("Sobol index", fontsize=8)
        ax.set_yticks(y, [short_parameter(p) for p in summary["parameter"]], fontsize=7)
        ax.axvline(0, color="black", lw=0.6)
        ax.set_title(output_label(o), fontsize=8)
        ax.tick_params(axis="x", labelsize=7)
    methods = {s["method"].iloc[0] for _, s in drawn}
    handles = ([matplotlib.patches.Patch(color=SIGN_COLOURS[d], label=SIGN_NAMES[d]) for d in (1.0, -1.0, 0.0)]
               if "morris" in methods else [])
    handles += ([matplotlib.patches.Patch(color="C0", label="total index (ST)"),
                 matplotlib.patches.Patch(color="C1", alpha=0.7, label="first-order index (S1)")]
                if "sobol" in methods else [])
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=8, frameon=False)
    fig.suptitle(f"What moves each output (top {TORNADO.get('top', 10)} parameters, 95 % intervals)", fontsize=11)
    fig.tight_layout(rect=(0, 0.04, 1, 0.97))
    return fig


ROBUSTNESS_CODES = {"held": 1, "zero": 0, "flipped": -1}


def robustness(t: dict):
    """The verdict-by-world strip (robustness.csv): x the worlds (0: the defaults), y each arm · KPI, green where the
    paired difference keeps the defaults' sign, red where it flips, grey where its interval holds 0; experiment.csv's
    robustness verdict beside each row."""
    strip = robustness_strip(t)
    if strip is None:
        return None
    z = np.array([[ROBUSTNESS_CODES.get(s, np.nan) if s else np.nan for s in line] for line in strip["states"]],
                 dtype=float)
    rows = len(strip["rows"])
    fig = _figure(figsize=(max(6.0, 0.35 * len(strip["worlds"]) + 5), 0.3 * rows + 1.8))
    ax = fig.add_subplot(111)
    cmap = matplotlib.colors.ListedColormap(["#d62728", "#c7c7c7", "#2ca02c"])
    ax.imshow(z, aspect="auto", cmap=cmap, vmin=-1.5, vmax=1.5, interpolation="nearest")
    ax.set_xticks(range(len(strip["worlds"])), [str(w) for w in strip["worlds"]], fontsize=7)
    ax.set_yticks(range(rows), [f"{r}  [{v}]" if v else r for r, v in zip(strip["rows"], strip["verdicts"])],
                  fontsize=7)
    ax.set_xlabel("world (0: the scenario's defaults; 1…N: the plausible set's)")
    ax.legend(handles=[matplotlib.patches.Patch(color=c, label=ROBUSTNESS_STATES[s]) for s, c in
                       (("held", "#2ca02c"), ("flipped", "#d62728"), ("zero", "#c7c7c7"))],
              loc="upper center", bbox_to_anchor=(0.5, -0.12 - 1.0 / max(rows, 4)), ncol=3, fontsize=8, frameon=False)
    ax.set_title(f"Verdict by world: does each difference against {strip['control']} keep its sign?", fontsize=10)
    fig.tight_layout()
    return fig


def plausible_widths(widths: pd.DataFrame):
    """plausible-widths.csv: per parameter its prior range (grey), the plausible worlds' range (coloured by the
    verdict: pinned, narrowed, wide) and the default (black tick), each scaled to its prior (0 = prior low, 1 = high)."""
    if widths is None or widths.empty:
        return None
    colours = {"pinned": "C2", "narrowed": "C1", "wide": "C3"}
    df = widths.reset_index(drop=True)
    span = (df["prior_high"] - df["prior_low"]).replace(0, np.nan)
    scaled = lambda c: (df[c] - df["prior_low"]) / span  # noqa: E731
    fig = _figure(figsize=(8, 0.32 * len(df) + 1.6))
    ax = fig.add_subplot(111)
    y = np.arange(len(df))
    ax.barh(y, 1.0, color="#e6e6e6", label="prior range")
    for verdict, c in colours.items():
        part = df["verdict"].astype(str) == verdict
        if part.any():
            ax.barh(y[part], (scaled("plausible_high") - scaled("plausible_low"))[part], left=scaled("plausible_low")[part],
                    color=c, height=0.5, label=f"plausible ({verdict})")
    ax.plot(scaled("default"), y, "|", color="black", markersize=12, label="default")
    ax.set_yticks(y, [short_parameter(p) for p in df["parameter"]], fontsize=7)
    ax.set_xlim(-0.02, 1.02)
    ax.invert_yaxis()
    ax.set_xlabel("position in the prior range (0 = low end, 1 = high end)")
    ax.set_title("How far the plausible set narrows each parameter", fontsize=10)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def renderer(chart: dict):
    """The function that draws a chart of the specification from a run's tables: its kind's generic function with
    the chart's entry (`lines`, `bars`, `histogram`, `scatter`), or — a dedicated kind — the function of the kind's name."""
    kinds = spec.spec()["chart_kinds"]
    if kinds[chart["kind"]]["renderer"] == "generic":
        draw = globals()[spec.function_name(chart["kind"])]
        return lambda t: draw(t, chart)
    return globals()[spec.function_name(chart["kind"])]


def chart(t: dict, chart_id: str):
    """Draws the specification's chart `chart_id` from a run's tables (the notebooks' way to draw any chart)."""
    return renderer(spec.chart(chart_id))(t)


# Every figure of the specification's charts, in its order: (chart id, the function that draws it from a run's
# tables). A chart whose kind has no function here fails at import; test_report_spec.py fails on a figure function
# no chart kind names.
ALL = [(c["id"], renderer(c)) for c in spec.charts()]


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
