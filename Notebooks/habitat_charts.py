"""The interactive charts of a run's `report.html` (Plotly), drawn from the same tables as the PNGs and notebooks.

Every function takes a run's tables (`habitat_plots.load_run`) and returns a `plotly.graph_objects.Figure`, or None
when the run has no data for it. They read the CSVs through the same helpers as the matplotlib figures of
`habitat_plots` (pooled rows, replication means and 95 % bands, the targets the run's own files carry), so the PNGs,
the notebooks and the page say the same thing. Which charts exist is the report specification's (docs/report-spec.json):
`CHARTS` holds one function per chart, named after its id.

Every trace that belongs to one arm carries `meta={"arm": NAME}`: the page's arm selector shows one arm or all by
toggling those traces. Every figure has a title saying what it shows and axis titles with units.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

import habitat_data as hp

# Plotly's default qualitative palette, one colour per arm (or per series when there is one arm).
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf"]
GREEN, RED, GREY = "#2ca02c", "#d62728", "#7f7f7f"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def arms_of(t: dict) -> list:
    """The run's arms in run order (kpis.csv is written by every run)."""
    return [str(a) for a in dict.fromkeys(t["kpis"]["arm"])]


def _layout(fig: go.Figure, title: str, height: int = 420, **kwargs) -> go.Figure:
    settings = dict(title=dict(text=title, x=0.01, xanchor="left", font=dict(size=15)), height=height,
                    margin=dict(l=70, r=30, t=70, b=60), font=dict(family=FONT, size=12),
                    legend=dict(orientation="h", yanchor="top", y=-0.18, x=0), template="plotly_white",
                    hoverlabel=dict(namelength=-1))
    settings.update(kwargs)
    fig.update_layout(**settings)
    return fig


def _band(x, low, high, arm: str, i: int, name: str, group: str) -> go.Scatter:
    """A shaded 95 % band between `low` and `high` along `x` (one closed polygon)."""
    x = list(x)
    return go.Scatter(x=x + x[::-1], y=list(high) + list(low)[::-1], fill="toself", mode="lines", line=dict(width=0),
                      fillcolor=_alpha(colour(i), 0.18), hoverinfo="skip", showlegend=False, name=name,
                      legendgroup=group, meta={"arm": arm})


def _alpha(hex_colour: str, a: float) -> str:
    r, g, b = (int(hex_colour[k:k + 2], 16) for k in (1, 3, 5))
    return f"rgba({r},{g},{b},{a})"


def _per_replication_mean(rows: pd.DataFrame, index: str, value: str, replications: list, keys=None):
    """Mean over replications of `value` by `index` and the half-width of its 95 % interval (missing = 0)."""
    table = rows.pivot_table(index=index, columns="replication", values=value, aggfunc="sum")
    table = table.reindex(columns=replications)
    if keys is not None:
        table = table.reindex(index=keys)
    return hp._mean_band(table.fillna(0.0))


# --- World check ----------------------------------------------------------------------------------------------


def world_check(t: dict) -> go.Figure | None:
    """Each published figure's range as a band (scaled per row: 0 = low end, 1 = high end) and each arm's simulated
    mean with its 95 % interval; the real numbers in the hover and in the page's table."""
    if "worldcheck" not in t:
        return None
    df = t["worldcheck"]
    applies = df[df["applies"] == "yes"]
    if applies.empty:
        return None
    figures = list(dict.fromkeys(applies["figure"]))
    fig = go.Figure()
    fig.add_trace(go.Bar(y=figures, x=[1.0] * len(figures), base=0, orientation="h", marker_color=_alpha(GREEN, 0.15),
                         name="published range", hoverinfo="skip", width=0.7))
    arms = list(dict.fromkeys(applies["arm"]))
    for i, arm in enumerate(arms):
        rows = applies[applies["arm"] == arm].set_index("figure").reindex(figures)
        low, high = rows["range_low"].astype(float), rows["range_high"].astype(float)
        width = (high - low).where(high > low, high.abs().clip(lower=1e-9))

        def pos(v):
            return ((v.astype(float) - low) / width).clip(-1.5, 2.5)
        x, lo, hi = pos(rows["simulated_mean"]), pos(rows["ci_low"]), pos(rows["ci_high"])
        inside = rows["inside"].astype(str).str.lower() == "true"
        hover = [f"{f}<br>simulated {_plain(r.simulated_mean)} (95 % CI {_plain(r.ci_low)} – {_plain(r.ci_high)})"
                 f"<br>published {_plain(r.range_low)} – {_plain(r.range_high)} {r.unit}<br>{r.source}"
                 for f, r in rows.iterrows()]
        fig.add_trace(go.Scatter(
            y=figures, x=x, mode="markers", name=f"simulated mean, arm {arm}" if len(arms) > 1 else "simulated mean",
            marker=dict(size=10, color=[GREEN if v else RED for v in inside], line=dict(width=1.5, color=colour(i)),
                        symbol=["circle" if v else "x" for v in inside]),
            error_x=dict(type="data", symmetric=False, array=(hi - x).clip(lower=0).fillna(0).tolist(),
                         arrayminus=(x - lo).clip(lower=0).fillna(0).tolist(), color=colour(i), thickness=1.5),
            hovertext=hover, hoverinfo="text", meta={"arm": str(arm)}))
    inside_n = (applies[applies["arm"] == arms[0]]["inside"].astype(str).str.lower() == "true").sum()
    fig.update_yaxes(autorange="reversed", title=None)
    fig.update_xaxes(range=[-1.6, 2.6], tickvals=[-1, 0, 0.5, 1, 2],
                     ticktext=["low − width", "range low", "middle", "range high", "high + width"],
                     title="where the simulated mean falls, relative to the published range (green band)")
    return _layout(fig, f"World check: {inside_n} of {len(figures)} measurable figures inside their published ranges"
                        f" (arm {arms[0]}; point = simulated mean, bar = 95 % CI, ✕ = outside)",
                   height=110 + 28 * len(figures))


def _plain(v) -> str:
    if v is None or (isinstance(v, float) and np.isnan(v)) or (isinstance(v, str) and not v.strip()):
        return "—"
    v = float(v)
    return f"{v:,.4g}"


# --- Activation funnel ----------------------------------------------------------------------------------------


def funnel(t: dict) -> go.Figure | None:
    """Share of installs reaching each stage, per arm (top), and each stage's rate on its target's basis against
    the targets the file carries (bottom: the conversion from the previous stage, or a share of installs where the
    stage's `target_basis` says so — issue 38; the target range as a bar from min to max; none where the product sets
    none)."""
    if "funnel" not in t:   # a run without the file (a run of no app writes none)
        return None
    df = hp.file_targets(hp._pooled(t["funnel"]), "funnel")
    if df.empty:
        return None
    stages = df.drop_duplicates("stage_order").sort_values("stage_order")
    # A stage's label; where the arms are different products (issue 28) with their own stages, each product's stage
    # at that position, one under the other (the hover names the arm's own).
    by_order = {o: "<br>".join(dict.fromkeys(f"{s} {n}" for s, n in zip(g["stage"], g["stage_name"])))
                for o, g in df.sort_values("stage_order", kind="stable").groupby("stage_order", sort=True)}
    mixed = any("<br>" in v for v in by_order.values())
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.06, row_heights=[0.55, 0.45],
                        subplot_titles=["share of installs reaching the stage",
                                        "conversion from the previous stage, or share of installs where the stage's target "
                                        "is one (black: the target, where the file has one)"])
    for i, arm in enumerate(dict.fromkeys(df["arm"])):
        rows = hp.funnel_basis(df[df["arm"] == arm].sort_values("stage_order").reset_index(drop=True))
        x = [by_order[o] for o in rows["stage_order"]]
        own = [f"{s} {n}" for s, n in zip(rows["stage"], rows["stage_name"])]
        fig.add_trace(go.Bar(x=x, y=rows["rate_from_start"], name=f"arm {arm}", marker_color=colour(i),
                             legendgroup=str(arm), meta={"arm": str(arm)}, customdata=own,
                             text=["" if pd.isna(v) else f"{v:.0%}" for v in rows["_measure"]], textposition="outside",
                             hovertemplate="%{customdata}<br>%{y:.1%} of installs<extra>arm " + str(arm) + "</extra>"),
                      row=1, col=1)
        fig.add_trace(go.Bar(x=x, y=rows["_measure"], name=f"arm {arm}", marker_color=colour(i),
                             legendgroup=str(arm), showlegend=False, meta={"arm": str(arm)},
                             customdata=[[o, hp.basis_words(b)] for o, b in zip(own, rows["_basis"])],
                             hovertemplate="%{customdata[0]}<br>%{y:.1%} %{customdata[1]}<extra>arm " + str(arm)
                                           + "</extra>"), row=2, col=1)
    targets = df[df["_target_min"].notna()].drop_duplicates("stage_order").sort_values("stage_order")
    whose = f" of arm {targets['arm'].iloc[0]}" if mixed and len(targets) else ""
    if len(targets):
        x = [by_order[o] for o in targets["stage_order"]]
        ranged = targets[targets["_target_max"].notna()]
        if len(ranged):  # a target range: a grey bar from its min to its max
            fig.add_trace(go.Bar(x=[by_order[o] for o in ranged["stage_order"]],
                                 y=ranged["_target_max"].astype(float) - ranged["_target_min"].astype(float),
                                 base=ranged["_target_min"].astype(float), width=0.25, marker_color=_alpha(GREY, 0.45),
                                 name=f"step target range (min–max){whose}", hoverinfo="skip"), row=2, col=1)
        fig.add_trace(go.Scatter(
            x=x, y=targets["_target_min"].astype(float), mode="markers", name=f"step target (at least){whose}",
            marker=dict(symbol="line-ew-open", size=30, color="black", line=dict(width=2.5)),
            hovertemplate="%{x}<br>step target ≥ %{y:.0%}<extra></extra>"), row=2, col=1)
    fig.update_yaxes(tickformat=".0%", range=[0, 1.15], row=1, col=1, title="of installs")
    fig.update_yaxes(tickformat=".0%", range=[0, 1.1], row=2, col=1, title="rate on the target's basis")
    fig.update_xaxes(tickangle=-30, row=2, col=1)
    fig.update_layout(barmode="group")
    name = hp.product(t)
    return _layout(fig, f"Activation funnel{f' — {name}' if name else ''}, per arm (labels: rate on the target's basis)",
                   height=680, margin=dict(l=70, r=30, t=110, b=60),
                   legend=dict(orientation="h", yanchor="bottom", y=1.07, x=1, xanchor="right"))


# --- Retention ------------------------------------------------------------------------------------------------


def retention(t: dict) -> go.Figure | None:
    """Day-N retention of all installs, both readings (product in use; app opened), per arm, means over the
    replications with 95 % bands; the retention targets the run's kpis.csv carries as marks at their days."""
    if "retention" not in t:   # a run without the file (a run of no app writes none)
        return None
    df = t["retention"]
    rows = df[(df["replication"] != "all") & (df["cohort"] == "all") & (df["segment"] == "all")]
    if rows.empty:
        return None
    readings = [a for a in hp.RETENTION_READINGS if "activity" in rows.columns and (rows["activity"] == a).any()]
    readings = readings or [None]
    fig = make_subplots(rows=1, cols=len(readings), shared_yaxes=True, horizontal_spacing=0.05,
                        subplot_titles=[f"{hp.RETENTION_READINGS[r]}" if r else "opened the app that day"
                                        for r in readings])
    replications = hp._replications(t, rows)
    for c, reading in enumerate(readings):
        sub = rows if reading is None else rows[rows["activity"] == reading]
        for i, arm in enumerate(dict.fromkeys(sub["arm"])):
            a = sub[sub["arm"] == arm]
            table = a.pivot_table(index="day", columns="replication", values="retention").reindex(
                columns=[r for r in replications if r in set(a["replication"])])
            mean, half = hp._mean_band(table)
            group = f"{arm}"
            if (half > 0).any():
                fig.add_trace(_band(mean.index, (mean - half).clip(0, 1), (mean + half).clip(0, 1), str(arm), i,
                                    "95 % band", group), row=1, col=c + 1)
            fig.add_trace(go.Scatter(x=mean.index, y=mean, mode="lines", name=f"arm {arm}", line=dict(color=colour(i)),
                                     legendgroup=group, showlegend=c == 0, meta={"arm": str(arm)},
                                     hovertemplate="day %{x}: %{y:.1%}<extra>arm " + str(arm) + "</extra>"),
                          row=1, col=c + 1)
    targets = hp.retention_targets(t)
    if targets:
        fig.add_trace(go.Scatter(x=[d for d, _, _ in targets], y=[v for _, v, _ in targets], mode="markers",
                                 name=f"target ({', '.join(label for _, _, label in targets)})",
                                 marker=dict(symbol="line-ew-open", size=18, color="black", line=dict(width=2)),
                                 hovertemplate="D%{x} target %{y:.0%}<extra></extra>"), row=1, col=1)
    fig.update_yaxes(tickformat=".0%", range=[0, 1.02])
    fig.update_yaxes(title="share of installs active", row=1, col=1)
    fig.update_xaxes(title="day since install")
    band = " with 95 % bands over replications" if len(replications) > 1 else ""
    return _layout(fig, f"Day-N retention of all installs, both readings{band}", height=420)


# --- Revenue --------------------------------------------------------------------------------------------------


def revenue(t: dict) -> go.Figure | None:
    """Gross revenue per month by source (stacked; one stack per arm), mean over replications."""
    if "revenue" not in t:
        return None
    rows = t["revenue"][t["revenue"]["replication"].astype(str) != "all"]
    monthly = rows[rows["month"] != "total"]
    if monthly.empty:
        return None
    replications = hp._replications(t, rows)
    arms = arms_of(t)
    first, last = sorted(monthly["month"].unique())[0], sorted(monthly["month"].unique())[-1]
    months = [str(m) for m in pd.period_range(first, last, freq="M")]
    several = len(arms) > 1
    sources = list(dict.fromkeys(monthly["source"]))
    fig = go.Figure()
    for j, arm in enumerate(arms):
        x = [months, [arm] * len(months)] if several else months
        for i, source in enumerate(sources):
            sub = monthly[(monthly["arm"] == arm) & (monthly["source"] == source)]
            mean, _ = _per_replication_mean(sub, "month", "gross_usd", replications, months)
            fig.add_trace(go.Bar(x=x, y=mean, name=source, marker_color=colour(i), legendgroup=source,
                                 showlegend=j == 0, meta={"arm": arm},
                                 hovertemplate=f"{source}, arm {arm}<br>" + "%{y:$,.2f}<extra></extra>"))
    fig.update_yaxes(title="gross revenue per month (USD)", tickprefix="$")
    fig.update_xaxes(title="month" + (" / arm" if several else ""), type="multicategory" if several else "category")
    fig.update_layout(barmode="stack")
    name = hp.product(t)
    return _layout(fig, f"Revenue by source and month{f' — {name}' if name else ''} (gross USD, mean of "
                        f"{len(replications)} replication{'s' if len(replications) != 1 else ''})", height=440)




# --- Battery --------------------------------------------------------------------------------------------------


def battery(t: dict) -> go.Figure | None:
    """Battery drain per person-day by device (mean, p50–p99, max) against the budgets battery-budget.csv carries, on
    a log scale."""
    if "battery" not in t:   # a run without the file (a run of no app writes none)
        return None
    df = hp.file_targets(hp._pooled(t["battery"]), "battery")
    if df.empty:
        return None
    metrics = [m for m in hp.BATTERY_METRICS if (df["metric"] == m).any()]
    fig = make_subplots(rows=1, cols=len(metrics), shared_yaxes=True, horizontal_spacing=0.03,
                        subplot_titles=[hp.BATTERY_METRICS[m] for m in metrics])
    floor = 1e-5
    arms = list(dict.fromkeys(df["arm"]))
    for c, metric in enumerate(metrics):
        for i, arm in enumerate(arms):
            rows = df[(df["metric"] == metric) & (df["arm"] == arm)]
            devices = rows["device"].tolist()
            p50, p99 = rows["p50"].clip(lower=floor), rows["p99"].clip(lower=floor)
            mean = rows["mean"].clip(lower=floor)
            fig.add_trace(go.Scatter(
                y=devices, x=mean, mode="markers", name=f"mean, p50–p99 (arm {arm})" if len(arms) > 1 else
                "mean (bar: p50–p99)", marker=dict(color=colour(i), size=9), legendgroup=f"mean{arm}",
                showlegend=c == 0, meta={"arm": str(arm)},
                error_x=dict(type="data", symmetric=False, array=(p99 - mean).clip(lower=0).tolist(),
                             arrayminus=(mean - p50).clip(lower=0).tolist(), color=colour(i), thickness=4, width=0),
                hovertemplate="%{y}: mean %{x:.3g} %<extra>arm " + str(arm) + "</extra>"), row=1, col=c + 1)
            fig.add_trace(go.Scatter(y=devices, x=rows["max"].clip(lower=floor), mode="markers", name="max",
                                     marker=dict(symbol="x", color=RED, size=7), legendgroup="max",
                                     showlegend=c == 0 and i == 0, meta={"arm": str(arm)},
                                     hovertemplate="%{y}: max %{x:.3g} %<extra></extra>"), row=1, col=c + 1)
        budgets = df[df["metric"] == metric]["_target_max"].dropna()
        if len(budgets):
            budget = float(budgets.iloc[0])
            fig.add_trace(go.Scatter(x=[budget, budget], y=[devices[0], devices[-1]], mode="lines",
                                     line=dict(color=RED, dash="dash"), name="budget", legendgroup="budget",
                                     showlegend=c == 0, hovertemplate=f"budget {budget:g} %<extra></extra>"),
                          row=1, col=c + 1)
        fig.update_xaxes(type="log", title="% of battery (log)", row=1, col=c + 1)
    name = hp.product(t)
    return _layout(fig, "Battery drain per person-day by device against the budgets"
                        f"{f' — {name}' if name else ''}", height=120 + 60 * df["device"].nunique())


def energy(t: dict) -> go.Figure | None:
    """Where the app's energy goes: each effect's share, per arm (replication 1; joules per person-day in the
    hover)."""
    if "energy" not in t:   # a run without the file (a run of no app writes none)
        return None
    e = hp._pooled(t["energy"])
    if e.empty:
        return None
    order = e.groupby("activity")["share"].mean().sort_values().index.tolist()
    fig = go.Figure()
    for i, arm in enumerate(dict.fromkeys(e["arm"])):
        rows = e[e["arm"] == arm].set_index("activity").reindex(order)
        fig.add_trace(go.Bar(y=order, x=rows["share"], orientation="h", name=f"arm {arm}", marker_color=colour(i),
                             meta={"arm": str(arm)}, customdata=rows["joules_per_person_day"],
                             hovertemplate="%{y}: %{x:.1%} of the energy, %{customdata:.3g} J per person-day"
                                           "<extra>arm " + str(arm) + "</extra>"))
    fig.update_xaxes(tickformat=".0%", title="share of the app's energy")
    fig.update_layout(barmode="group")
    return _layout(fig, "Energy by effect: which of the app's actions spend the battery", height=120 + 24 * len(order))


# --- Experiment -----------------------------------------------------------------------------------------------


def experiment(t: dict, source: str = "experiment", title: str | None = None) -> go.Figure | None:
    """Forest plot: each KPI's difference arm − control relative to the control mean, the paired 95 % interval
    (left) beside the unpaired one (right) on the same axis; a row per KPI (per KPI and arm with several arms)."""
    if source not in t:
        return None
    df = t[source].dropna(subset=["diff"])
    df = df[df["control_mean"].astype(float) != 0]
    if df.empty:
        return None
    fig = make_subplots(rows=1, cols=2, shared_yaxes=True, shared_xaxes=True, horizontal_spacing=0.03,
                        subplot_titles=["paired: the same people in both arms", "unpaired: as if different people"])
    kpis = list(dict.fromkeys(df["kpi"]))
    arms = list(dict.fromkeys(df["arm"]))

    def row_label(kpi: str, arm: str) -> str:
        return f"{kpi} · {arm}" if len(arms) > 1 else kpi
    order = [row_label(k, a) for k in kpis for a in arms if ((df["kpi"] == k) & (df["arm"] == a)).any()]
    for j, arm in enumerate(arms):
        rows = df[df["arm"] == arm].set_index("kpi").reindex(kpis).dropna(subset=["diff"])
        scale = rows["control_mean"].astype(float).abs()
        diff = rows["diff"] / scale
        for c, (low, high) in enumerate([("diff_ci_low", "diff_ci_high"), ("unpaired_ci_low", "unpaired_ci_high")]):
            lo, hi = rows[low] / scale, rows[high] / scale
            fig.add_trace(go.Scatter(
                y=[row_label(k, arm) for k in rows.index], x=diff, mode="markers", name=f"{arm} − control", legendgroup=str(arm),
                showlegend=c == 0, meta={"arms": [str(arm), str(rows["control_arm"].iloc[0])]}, marker=dict(color=colour(j + 1), size=8),
                error_x=dict(type="data", symmetric=False, array=(hi - diff).fillna(0).tolist(),
                             arrayminus=(diff - lo).fillna(0).tolist(), color=colour(j + 1), thickness=2),
                customdata=np.stack([rows["diff"], rows[low], rows[high]], axis=1),
                hovertemplate="%{y}: %{x:+.1%} of the control mean<br>difference %{customdata[0]:.4g} (95 % CI "
                              "%{customdata[1]:.4g} to %{customdata[2]:.4g})<extra>arm " + str(arm) + "</extra>"),
                row=1, col=c + 1)
    for c in (1, 2):
        fig.add_vline(x=0, line=dict(color="black", width=1), row=1, col=c)
        fig.update_xaxes(tickformat="+.0%", title="difference, relative to the control mean", row=1, col=c)
    fig.update_yaxes(autorange="reversed", categoryorder="array", categoryarray=order)
    if "robustness" in df.columns:   # issue 45, a run with --robustness: each row's verdict across the plausible worlds
        for k, arm in ((k, a) for k in kpis for a in arms):
            verdict = df[(df["kpi"] == k) & (df["arm"] == arm)]["robustness"]
            if not verdict.empty and pd.notna(verdict.iloc[0]):
                fig.add_annotation(x=1.0, xref="paper", xanchor="left", y=row_label(k, arm), yref="y", showarrow=False,
                                   text=str(verdict.iloc[0])[:48], font=dict(size=10, color=GREY))
    control = df["control_arm"].iloc[0]
    title = title or f"Arms against the control ({control}): paired differences beside unpaired intervals (95 %)"
    wide = dict(margin=dict(l=70, r=260, t=70, b=60)) if "robustness" in df.columns else {}
    return _layout(fig, title, height=160 + 24 * len(order), **wide)


# --- Forecast -------------------------------------------------------------------------------------------------

def forecast(t: dict) -> go.Figure | None:
    """The forecast's monthly means with 95 % bands over replications, one panel per metric (the specification's
    metrics). No target line: no file a run writes carries a forecast target."""
    if "forecast" not in t:
        return None
    df = t["forecast"]
    df = df[df["month"] != "total"]
    metrics = [(m, label) for m, (label, _) in hp.FORECAST_METRICS.items() if (df["metric"] == m).any()]
    if not metrics:
        return None
    cols = 3
    n_rows = (len(metrics) + cols - 1) // cols
    fig = make_subplots(rows=n_rows, cols=cols, subplot_titles=[label for _, label in metrics],
                        vertical_spacing=0.14, horizontal_spacing=0.07)
    for k, (metric, label) in enumerate(metrics):
        r, c = k // cols + 1, k % cols + 1
        for i, arm in enumerate(dict.fromkeys(df["arm"])):
            rows = df[(df["metric"] == metric) & (df["arm"] == arm)]
            low = rows["ci_low"].fillna(rows["mean"])
            high = rows["ci_high"].fillna(rows["mean"])
            if hp.FORECAST_METRICS[metric][1] != "fraction":  # money and people are not negative
                low = low.clip(lower=0)
            fig.add_trace(_band(rows["month"], low, high, str(arm), i, "95 % band", str(arm)), row=r, col=c)
            fig.add_trace(go.Scatter(x=rows["month"], y=rows["mean"], mode="lines+markers", name=f"arm {arm}",
                                     line=dict(color=colour(i)), legendgroup=str(arm), showlegend=k == 0,
                                     meta={"arm": str(arm)},
                                     hovertemplate="%{x}: %{y:,.4g}<extra>" + label + "</extra>"), row=r, col=c)
        unit = hp.FORECAST_METRICS[metric][1]
        if unit == "fraction":
            fig.update_yaxes(tickformat=".0%", rangemode="tozero", row=r, col=c)
        elif unit == "usd":
            fig.update_yaxes(tickprefix="$", row=r, col=c)
    fig.update_xaxes(tickangle=-45, tickfont=dict(size=10))
    return _layout(fig, "Forecast by month: means with 95 % bands over replications", height=330 * n_rows + 60)


# --- Earned Access: unlocks -----------------------------------------------------------------------------------





# --- AI cost and things to do (issue 29) ------------------------------------------------------------------------





def learning(t: dict) -> go.Figure | None:
    """Issue 26: week by week since install, the urges for the target apps of people still using the product
    against the urges the same people would have had untreated (1 = no change), and the dormant share of shields;
    issue 28, where the file has it: the minutes a day in the target apps by status (people still using the product,
    dormant people, people without the app — after their tenure ended, or with no app at all)."""
    if "learning" not in t or t["learning"].empty:
        return None
    df = hp._pooled(t["learning"])
    df = df[df["week_since_install"].astype(int) >= 1]
    if df.empty:
        return None
    minutes = hp.learning_minutes(df)
    arms = list(dict.fromkeys(df["arm"]))
    active = df[df["status"] == "active"]
    every = df[df["status"] == "all"]
    learned = (active["urges_vs_untreated"].notna().any() or every["dormant_shield_share"].notna().any())
    panels = (["urges against the untreated rate, and who meets the shields"] if learned else []) + (
        ["minutes a day in the target apps, by status"] if minutes is not None else [])
    if not panels:
        return None
    fig = make_subplots(rows=1, cols=len(panels), subplot_titles=panels if len(panels) > 1 else None,
                        horizontal_spacing=0.08)
    dashes = ["solid", "dot", "dash", "dashdot", "longdash"]
    for j, arm in enumerate(arms):
        suffix = f" (arm {arm})" if len(arms) > 1 else ""
        if learned:
            mine = active[active["arm"] == arm]
            fig.add_trace(go.Scatter(x=mine["week_since_install"].astype(int), y=mine["urges_vs_untreated"].astype(float),
                                     mode="lines+markers", name="urges vs untreated, people using the product" + suffix,
                                     meta={"arm": str(arm)}, line=dict(color=colour(0), dash=dashes[j % len(dashes)]),
                                     hovertemplate="week %{x}: %{y:.3f} of the untreated urges<extra></extra>"),
                          row=1, col=1)
            mine = every[every["arm"] == arm]
            fig.add_trace(go.Scatter(x=mine["week_since_install"].astype(int), y=mine["dormant_shield_share"].astype(float),
                                     mode="lines+markers", name="dormant people's share of shields" + suffix,
                                     meta={"arm": str(arm)}, line=dict(color=colour(1), dash=dashes[j % len(dashes)]),
                                     hovertemplate="week %{x}: %{y:.1%} of shields met by dormant people<extra></extra>"),
                          row=1, col=1)
        if minutes is not None:
            for i, (status, name) in enumerate(hp.LEARNING_STATUSES.items()):
                mine = minutes[(minutes["arm"] == arm) & (minutes["status"] == status)]
                if mine.empty:
                    continue
                fig.add_trace(go.Scatter(
                    x=mine["week_since_install"].astype(int), y=mine[hp.LEARNING_MINUTES].astype(float),
                    mode="lines+markers", name=f"target-app minutes, {name}{suffix}", meta={"arm": str(arm)},
                    line=dict(color=colour(2 + i), dash=dashes[j % len(dashes)]),
                    customdata=mine["person_days"].astype(float),
                    hovertemplate="week %{x}: %{y:.1f} min a day (%{customdata:,.0f} person-days)<extra>" + name
                                  + suffix + "</extra>"), row=1, col=len(panels))
    fig.update_xaxes(title="week since install", dtick=1)
    if learned:
        fig.update_yaxes(title="ratio or share", rangemode="tozero", row=1, col=1)
    if minutes is not None:
        fig.update_yaxes(title="minutes a day in the target apps", rangemode="tozero", row=1, col=len(panels))
    title = "Learning week by week since install" if len(panels) > 1 else f"Learning: {panels[0]}"
    return _layout(fig, title + (" (line style: arm)" if len(arms) > 1 else ""), height=430)


# --- Products compared on the same people (issue 28) ------------------------------------------------------------


def _value_text(v: tuple, unit: str) -> str:
    """'30.6 (95 % CI 29.0 – 32.2) minutes' for hovers; — for an empty value."""
    if np.isnan(v[0]):
        return "—"
    interval = "" if np.isnan(v[1]) else f" (95 % CI {_plain(v[1])} – {_plain(v[2])})"
    return f"{_plain(v[0])}{interval} {hp.spec.unit_labels().get(unit, unit)}"


def _error(values: list[tuple], axis: str) -> dict:
    errors = hp._errors(values)
    return {f"error_{axis}": dict(type="data", symmetric=False, array=errors[1].tolist(),
                                  arrayminus=errors[0].tolist(), thickness=2, width=5)}


def _padded(values: list, right: float = 0.1, left: float = 0.08) -> list[float] | None:
    """An axis range holding every finite value, with room beyond its ends (fractions of the span)."""
    finite = [float(v) for v in values if v is not None and np.isfinite(v)]
    if not finite:
        return None
    low, high = min(finite), max(finite)
    span = (high - low) or abs(high) or 1.0
    return [low - left * span, high + right * span]


# The most KPI panels the products chart puts in a row (more wrap onto the next: their titles stay readable).
PANELS_PER_ROW = 5


def product_comparison(t: dict) -> go.Figure | None:
    """product-comparison.csv (persona all): a panel per KPI with each arm's mean and 95 % interval (neutral KPIs,
    then the shared ones; an arm a colour, the same in every panel), then the effect against each cost — the
    target-app minutes a product removes a day against no app (paired 95 % interval) against its battery cost and its
    money — and each product's claim beside its true effect on the same people. Traces of one arm carry its name;
    those of a difference from the arm without an app carry both (the arm selector shows them with either)."""
    df = hp.product_rows(t)
    if df is None:
        return None
    arms = hp.comparison_arms(df)
    index = {arm: i for i, arm in enumerate(arms)}
    none = hp.none_arm(df)
    kinds = [k for k in hp.PRODUCT_KINDS if k != "claim" and (df["kind"] == k).any()]
    by_kind = {k: list(dict.fromkeys(df[df["kind"] == k]["kpi"])) for k in kinds}
    # At most PANELS_PER_ROW KPI panels a row (issue 29's four tasks KPIs make nine neutral ones): a kind's KPIs wrap.
    panel_rows = [(k, by_kind[k][i:i + PANELS_PER_ROW]) for k in kinds for i in range(0, len(by_kind[k]), PANELS_PER_ROW)]
    width = max([len(chunk) for _, chunk in panel_rows] + [5])
    claims = df[df["kind"] == "claim"]
    costs, effects = hp.PRODUCTS_CHART["costs"], hp.product_effects(df)
    pairs = [(effect, k, cost) for effect in effects for k, cost in enumerate(costs)]
    bottom = hp._bottom_spans(width * 2, len(pairs) + (1 if len(claims) else 0))
    specs, titles = [], []
    for kind, chunk in panel_rows:
        row = []
        for kpi in chunk:
            unit = str(df[(df["kind"] == kind) & (df["kpi"] == kpi)]["unit"].iloc[0])
            row += [{"colspan": 2}, None]
            titles.append(hp.kpi_label(kpi, unit))
        row += [None] * (width * 2 - len(row))
        specs.append(row)
    row = []
    for k, (a, b) in enumerate(bottom):
        row += [{"colspan": b - a}] + [None] * (b - a - 1)
        titles.append(f"{hp.effect_name(pairs[k][0])} against {pairs[k][2]['label'].split(':')[0]}" if k < len(pairs)
                      else "Claimed against true effect")
    specs.append(row)
    fig = make_subplots(rows=len(panel_rows) + 1, cols=width * 2, specs=specs, subplot_titles=titles,
                        row_heights=[1] * len(panel_rows) + [1.5], vertical_spacing=0.35 / (len(panel_rows) + 1),
                        horizontal_spacing=0.045)
    fig.update_annotations(font_size=11)
    shown_in_legend = set()

    def legend(arm: str) -> bool:
        first = arm not in shown_in_legend
        shown_in_legend.add(arm)
        return first
    for r, (kind, chunk) in enumerate(panel_rows):
        for c, kpi in enumerate(chunk):
            sub = df[(df["kind"] == kind)]
            unit = str(sub[sub["kpi"] == kpi]["unit"].iloc[0])
            for arm in [a for a in arms if ((sub["arm"].astype(str) == a) & (sub["kpi"] == kpi)).any()]:
                v = hp.figure_of(sub, arm, kpi)
                d = hp.figure_of(sub, arm, kpi, "vs_none_diff")
                vs = "" if np.isnan(d[0]) else f"<br>against {none}: {_value_text(d, unit)} (paired)"
                fig.add_trace(go.Scatter(
                    x=[arm], y=[v[0]], mode="markers", name=arm, legendgroup=arm, showlegend=legend(arm),
                    marker=dict(color=colour(index[arm]), size=10), meta={"arm": arm}, **_error([v], "y"),
                    hovertemplate=f"{arm}: {_value_text(v, unit)}{vs}<extra>{kpi}</extra>"),
                    row=r + 1, col=2 * c + 1)
            n = ((sub["kpi"] == kpi)).sum()
            if sub[sub["kpi"] == kpi]["mean"].isna().all():   # e.g. day-30 retention in a 30-day run
                fig.add_annotation(text="not measured in this run", xref="x domain", yref="y domain", x=0.5, y=0.5,
                                   showarrow=False, font=dict(color=GREY, size=11), row=r + 1, col=2 * c + 1)
                fig.update_yaxes(showticklabels=False, row=r + 1, col=2 * c + 1)
            fig.update_xaxes(range=[-0.6, n - 0.4], tickfont=dict(size=10), row=r + 1, col=2 * c + 1)
            if unit == "fraction":
                fig.update_yaxes(tickformat=".0%", row=r + 1, col=2 * c + 1)
            elif unit == "usd":
                fig.update_yaxes(tickprefix="$", row=r + 1, col=2 * c + 1)
        fig.update_yaxes(title=dict(text=hp.PRODUCT_KINDS[kind], font=dict(size=11)), row=r + 1, col=1)
    points = {e["kpi"]: hp.effect_and_costs(df, e) for e in effects}
    last = len(panel_rows) + 1
    for n, (effect, k, cost) in enumerate(pairs):
        col = bottom[n][0] + 1
        effect_unit = next(iter(df[df["kpi"] == effect["kpi"]]["unit"].astype(str)), "")
        for p in points[effect["kpi"]]:
            x, y = p["costs"][k], p["effect"]
            if np.isnan(x[0]):
                continue
            arm = p["arm"]
            fig.add_trace(go.Scatter(
                x=[x[0]], y=[y[0]], mode="markers+text", text=[arm], name=arm,
                textposition=["top right", "bottom right", "top left", "bottom left"][index[arm] % 4],   # apart
                legendgroup=arm, showlegend=legend(arm), marker=dict(color=colour(index[arm]), size=13),
                textfont=dict(color=colour(index[arm])), meta={"arms": [arm] + ([none] if none else [])},
                **_error([x], "x"), **_error([y], "y"),
                hovertemplate=f"{arm}<br>{effect['label']}: {_value_text(y, effect_unit)}<br>{cost['label']}: "
                              f"{_plain(x[0])} (95 % CI {_plain(x[1])} – {_plain(x[2])})<extra></extra>"),
                row=last, col=col)
        fig.add_hline(y=0, line=dict(color=GREY, width=1), row=last, col=col)
        fig.add_vline(x=0, line=dict(color=GREY, width=1), row=last, col=col)
        xs = [v for p in points[effect["kpi"]] for v in p["costs"][k]] + [0.0]
        ys = [v for p in points[effect["kpi"]] for v in p["effect"]] + [0.0]
        fig.update_xaxes(range=_padded(xs, right=0.3), row=last, col=col)   # room for the arms' names
        fig.update_yaxes(range=_padded(ys, right=0.12), row=last, col=col)
        fig.update_xaxes(title=dict(text=cost.get("short", cost["label"]), font=dict(size=11)), zeroline=False,
                         row=last, col=col)
        fig.update_yaxes(title=dict(text=effect.get("short", effect["label"]), font=dict(size=11)), zeroline=False,
                         row=last, col=col)
    if len(claims):
        col = bottom[-1][0] + 1
        labels = []
        for _, r in claims.iterrows():
            arm, unit = str(r["arm"]), str(r["unit"])
            several = (claims["arm"].astype(str) == arm).sum() > 1   # an arm with several claims: name each
            label = f"{arm}<br>{r['kpi'].replace('_', ' ')}" if several else arm
            labels.append(label)
            claimed = (r["mean"], r["ci_low"], r["ci_high"])
            true = hp.claim_true_effect(r)
            arms_of_claim = [arm] + ([none] if none else [])
            named = "true" if not np.isnan(true[0]) else "claimed"   # the pair's name above one of its points
            for value, name, symbol, which in [(claimed, "claimed (the app's own figure)", "circle-open", "claimed"),
                                               (true, "true effect, on the claim's denominator (same people, against no app)", "diamond", "true")]:
                if np.isnan(value[0]):
                    continue
                fig.add_trace(go.Scatter(
                    x=[value[0]], y=[label], mode="markers+text" if which == named else "markers", name=name,
                    text=[label.replace("<br>", ": ")] if which == named else None, textposition="top center",
                    textfont=dict(color=colour(index[arm])), legendgroup=name,
                    showlegend=legend(name), meta={"arms": arms_of_claim},
                    marker=dict(color=colour(index[arm]), size=13, symbol=symbol, line=dict(width=2.5)),
                    **_error([value], "x"),
                    hovertemplate=f"{arm}, {name}: {_value_text(value, unit)}<br>{r['claim']}<extra></extra>"),
                    row=last, col=col)
        units = list(dict.fromkeys(claims["unit"].astype(str)))
        fig.update_xaxes(title=dict(text=" / ".join(hp.spec.unit_labels().get(u, u) for u in units),
                                    font=dict(size=11)), row=last, col=col)
        # The claims' names stand above their points (tick labels would run into the panel on the left).
        fig.update_yaxes(categoryorder="array", categoryarray=labels, range=[len(labels) - 0.5, -0.9],
                         showticklabels=False, row=last, col=col)
    reps = df["replications"].max()
    n = f"{int(reps)} replications" if not np.isnan(reps) else "the replications"
    height = 300 * len(panel_rows) + 470
    _layout(fig, f"Products compared on the same people: means with 95 % intervals over {n}"
                        + (f", differences paired against {none}" if none else ""),
                   height=height, margin=dict(l=80, r=30, t=160, b=60),
                   # the legend 35 px above the panels, the title at the top, whatever the height
                   legend=dict(orientation="h", yanchor="bottom", y=1 + 35 / (height - 220), x=1, xanchor="right"))
    fig.update_layout(title=dict(y=1 - 22 / height, yanchor="top"))
    return fig


# --- The generic chart kinds (issue 42): one function per kind draws any file the specification describes --------


def lines(t: dict, chart: dict) -> go.Figure | None:
    """A chart of kind `lines` (the specification's chart entry): the panels the page shows (those without `page`:
    false), each series along x per arm — mean over replications with its 95 % band, or the pooled rows —; a
    panel's `bars` column as bars on a second axis, its `target` the ceiling the file carries (a dashed line). One
    series a panel: a colour per arm; several: a colour per series and a line style per arm. None without rows."""
    series = hp.chart_series(t, chart)
    if not series:
        return None
    shown = [i for i, p in enumerate(chart["panels"]) if p.get("page", True)]
    series = [s for s in series if s["panel"] in shown
              and s["value"] not in chart["panels"][s["panel"]].get("page_except", [])]
    if not series:
        return None
    panel = chart["panels"][shown[0]]
    arms = list(dict.fromkeys(s["arm"] for s in series))
    labels = list(dict.fromkeys(s["label"] for s in series))
    dashes = ["solid", "dot", "dash", "dashdot"]
    fig = make_subplots(specs=[[{"secondary_y": True}]]) if panel.get("bars") else go.Figure()
    rows = hp.chart_rows(t, chart)
    for s in series:
        j = arms.index(s["arm"])
        i = j if len(labels) == 1 else labels.index(s["label"])
        name = (f"{s['label']}, arm {s['arm']}" if len(labels) == 1 and panel.get("bars")
                else s["label"] + (f" (arm {s['arm']})" if len(arms) > 1 else ""))
        if np.nanmax(np.nan_to_num(s["half"])) > 0:
            fig.add_trace(_band(s["x"], s["mean"] - s["half"], s["mean"] + s["half"], s["arm"], i, name, name))
        trace = go.Scatter(x=list(s["x"]), y=s["mean"], mode="lines+markers" if chart.get("over") == "pooled" else "lines",
                           name=name, legendgroup=name, meta={"arm": s["arm"]},
                           line=dict(color=colour(i), dash="solid" if len(labels) == 1 else dashes[j % len(dashes)]),
                           hovertemplate=f"%{{x}}: %{{y:.3g}}<extra>{name}</extra>")
        if panel.get("bars"):
            fig.add_trace(trace, secondary_y=False)
            sub = rows[rows["arm"] == s["arm"]].set_index(chart["x"]).reindex(list(s["x"]))
            label = hp.spec.label(chart["key"], panel["bars"])
            fig.add_trace(go.Bar(x=list(s["x"]), y=sub[panel["bars"]], name=f"{label}, arm {s['arm']}",
                                 marker_color=_alpha(colour(j), 0.3), meta={"arm": s["arm"]},
                                 hovertemplate=f"%{{x}}: %{{y}}<extra>arm {s['arm']}</extra>"), secondary_y=True)
        else:
            fig.add_trace(trace)
    ceiling = hp.chart_ceiling(t, chart) if panel.get("target") else None
    if ceiling is not None:
        label = hp.spec.label(chart["key"], hp.spec.targets(chart["key"])[panel["target"]])
        fig.add_shape(type="line", xref="x domain", x0=0, x1=1, yref="y", y0=ceiling, y1=ceiling,
                      line=dict(color=RED, dash="dash", width=1.5))
        ceiling_trace = go.Scatter(x=[None], y=[None], mode="lines", name=f"{label} {ceiling:g}",
                                   line=dict(color=RED, dash="dash", width=1.5))
        fig.add_trace(ceiling_trace, secondary_y=False) if panel.get("bars") else fig.add_trace(ceiling_trace)
    unit = hp.spec.by_key()[chart["key"]]["columns"]
    fraction = any(c["name"] == (panel["y"] if isinstance(panel["y"], str) else panel["y"][0])
                   and c.get("unit") == "fraction" for c in unit)
    if panel.get("bars"):
        fig.update_yaxes(title=panel.get("y_label", ""), tickformat=".0%" if fraction else None, rangemode="tozero",
                         secondary_y=False)
        fig.update_yaxes(title=hp.spec.label(chart["key"], panel["bars"]), rangemode="tozero", showgrid=False,
                         secondary_y=True)
        fig.update_layout(barmode="group")
    else:
        fig.update_yaxes(title=panel.get("y_label", ""), rangemode="tozero", tickformat=".0%" if fraction else None)
    fig.update_xaxes(title=chart.get("x_label", chart["x"]), type="category" if chart["x"] == "month" else None)
    return _layout(fig, chart.get("title_page", chart["title"]), height=420)


def bars(t: dict, chart: dict) -> go.Figure | None:
    """A chart of kind `bars` (the specification's chart entry): the first panel the page shows, a bar per arm and
    series value at each x — the mean over replications with its 95 % interval (drawn from zero up) — against the
    ceiling the file carries (`target`: a dashed line). None without rows."""
    shown = [i for i, p in enumerate(chart["panels"]) if p.get("page", True)]
    summary = hp.bar_summary(t, chart, shown[0]) if shown else None
    if summary is None:
        return None
    panel = chart["panels"][shown[0]]
    xs = hp.x_order(chart, summary["x"])
    arms = list(dict.fromkeys(summary["arm"]))
    values = list(dict.fromkeys(summary["value"]))
    fig = go.Figure()
    for j, arm in enumerate(arms):
        for i, v in enumerate(values):
            rows = summary[(summary["arm"] == arm) & (summary["value"] == v)].set_index("x").reindex(xs)
            if rows["label"].isna().all():
                continue
            value, half = rows["mean"].astype(float), rows["half"].fillna(0).astype(float)
            name = rows["label"].dropna().iloc[0] + (f" (arm {arm})" if len(arms) > 1 else "")
            fig.add_trace(go.Bar(
                x=xs, y=value, name=name, meta={"arm": str(arm)},
                marker=dict(color=colour(i), pattern_shape=["", "/", "."][j % 3]),
                error_y=dict(type="data", symmetric=False, array=half.tolist(),
                             arrayminus=np.minimum(half, value.fillna(0)).tolist(), thickness=1.5, width=4),
                customdata=half, hovertemplate="%{x}: %{y:.6g} ± %{customdata:.6g} (95 % CI)<extra>" + name + "</extra>"))
    ceilings = summary["ceiling"].dropna() if panel.get("target") else pd.Series(dtype=float)
    if len(ceilings):
        limit = float(ceilings.max())
        label = hp.spec.label(chart["key"], hp.spec.targets(chart["key"])[panel["target"]])
        fig.add_trace(go.Scatter(x=xs, y=[limit] * len(xs), mode="lines", name=f"{label} {limit:g}",
                                 line=dict(color=RED, dash="dash", width=1.5), hoverinfo="skip"))
    fig.update_xaxes(title=chart.get("x_label", chart["x"]), type="category")
    fig.update_yaxes(title=panel.get("y_label", ""), rangemode="tozero")
    fig.update_layout(barmode="group")
    return _layout(fig, chart.get("title_page", chart["title"]), height=420)


def histogram(t: dict, chart: dict) -> go.Figure | None:
    """A chart of kind `histogram` (the specification's chart entry): a panel per value of its `series` column, bars
    of how many replications (per-replication rows, never the pooled ones) have each value of its `x` column from 0
    to the largest of its `x_max` column — a colour per arm —, the chart's mark for the panel as a dashed vertical
    line with its label, and the share of replications at or above it under the panel's title. None without rows,
    and None with fewer replications than its `min_replications`: the section's table then says a histogram needs
    many (`report_page.histogram_table`)."""
    summary = hp.histogram_summary(t, chart)
    if summary is None or not summary["enough"]:
        return None
    values = list(dict.fromkeys(s["value"] for s in summary["series"]))
    arms = list(dict.fromkeys(s["arm"] for s in summary["series"]))
    top = summary["top"]
    columns = min(len(values), 3)
    rows = -(-len(values) // columns)
    titles = []
    for value in values:
        mine = [s for s in summary["series"] if s["value"] == value]
        readings = [("" if len(arms) == 1 else f"{s['arm']}: ") + text
                    for s in mine if (text := hp.histogram_mark_text(s, top))]
        mark = mine[0]["mark"]
        titles.append(f"<b>{mine[0]['label']}</b><br><span style='font-size:11px'>{'<br>'.join(readings)}</span>"
                      + (f"<br><span style='font-size:10px;color:{RED}'>{mark['label']}</span>" if mark else "<br> "))
    fig = make_subplots(rows=rows, cols=columns, subplot_titles=titles, horizontal_spacing=0.06,
                        vertical_spacing=0.26 if rows > 1 else 0.1)
    marked = False
    for i, value in enumerate(values):
        row, col = i // columns + 1, i % columns + 1
        mine = [s for s in summary["series"] if s["value"] == value]
        for s in mine:
            j = arms.index(s["arm"])
            name = f"arm {s['arm']}" if len(arms) > 1 else chart.get("y_label", "replications")
            fig.add_trace(go.Bar(x=list(s["x"]), y=s["replications"].tolist(), name=name, legendgroup=name,
                                 showlegend=i == 0, marker_color=colour(j), meta={"arm": s["arm"]},
                                 hovertemplate=f"%{{x}} of {top}: %{{y}} of {s['n']} simulated studies"
                                               f"<extra>{s['label']}</extra>"), row=row, col=col)
        mark = mine[0]["mark"]
        peak = max(int(s["replications"].max()) for s in mine) or 1
        if mark:
            fig.add_trace(go.Scatter(x=[mark["x"], mark["x"]], y=[0, peak * 1.08], mode="lines",
                                     name="the thesis's value (marked)", legendgroup="mark", showlegend=not marked,
                                     line=dict(color=RED, dash="dash", width=1.5),
                                     hovertemplate=f"{mark['label']}<extra></extra>"), row=row, col=col)
            marked = True
        fig.update_xaxes(range=[-0.6, top + 0.6], dtick=1, row=row, col=col)
        fig.update_yaxes(range=[0, peak * 1.08], row=row, col=col)
    for i in range(len(values)):   # the x title under each panel with none below it
        if i + columns >= len(values):
            fig.update_xaxes(title=dict(text=chart.get("x_label", chart["x"]), font=dict(size=11)),
                             row=i // columns + 1, col=i % columns + 1)
    fig.update_yaxes(title=dict(text=chart.get("y_label", "replications"), font=dict(size=11)), col=1)
    fig.update_layout(barmode="group", bargap=0.15)
    return _layout(fig, chart.get("title_page", chart["title"]) + f" ({summary['replications']} replications)",
                   height=360 * rows + 180, margin=dict(l=70, r=30, t=165, b=90),
                   legend=dict(orientation="h", yanchor="top", y=-0.12, x=0))


def scatter(t: dict, chart: dict) -> go.Figure | None:
    """A chart of kind `scatter` (the specification's chart entry): one point per arm at the mean over replications
    of its `x` column against the mean of its `y` column (per-replication rows, never the pooled ones), each mean's
    95 % interval as error bars in both directions (one replication: the point alone), the arm's name beside its
    point (a swept arm's settings one a line) and in the hover with both intervals; shares on percent axes from 0,
    their intervals drawn inside 0…1. No line joins the points. None
    without rows, or when no arm has both means."""
    points = [p for p in hp.scatter_summary(t, chart) or [] if np.isfinite(p["x"]) and np.isfinite(p["y"])]
    if not points:
        return None
    share = {c: hp.spec.column(chart["key"], c).get("unit") == "fraction" for c in (chart["x"], chart["y"])}
    x_label = chart.get("x_label", hp.spec.label(chart["key"], chart["x"]))
    y_label = chart.get("y_label", hp.spec.label(chart["key"], chart["y"]))

    def shown(v: float, c: str) -> str:
        return f"{100 * v:.2f} %" if share[c] else f"{v:.4g}"
    fig = go.Figure()
    right = max(p["x"] + p["x_half"] for p in points)

    def bar(v: float, half: float, c: str) -> dict:   # a share's interval drawn inside 0…1
        low, high = (min(half, v), min(half, max(1 - v, 0))) if share[c] else (half, half)
        return dict(type="data", symmetric=False, array=[high], arrayminus=[low], visible=half > 0)
    for j, p in enumerate(points):
        hover = (f"<b>arm {p['arm']}</b><br>{x_label}: {shown(p['x'], chart['x'])}"
                 + (f" ± {shown(p['x_half'], chart['x'])}" if p["x_half"] > 0 else "")
                 + f"<br>{y_label}: {shown(p['y'], chart['y'])}"
                 + (f" ± {shown(p['y_half'], chart['y'])}" if p["y_half"] > 0 else "")
                 + f"<br>{p['replications']} replication{'s' if p['replications'] != 1 else ''} (95 % intervals)")
        fig.add_trace(go.Scatter(
            x=[p["x"]], y=[p["y"]], mode="markers+text", name=p["arm"], text=[p["arm"].replace(";", "<br>")],
            textposition="top left" if p["x"] > 0.7 * right else "top right",
            textfont=dict(size=10, color=colour(j)), marker=dict(size=10, color=colour(j)), meta={"arm": p["arm"]},
            error_x=dict(bar(p["x"], p["x_half"], chart["x"]), color=colour(j), thickness=1.5, width=4),
            error_y=dict(bar(p["y"], p["y_half"], chart["y"]), color=colour(j), thickness=1.5, width=4),
            hovertext=[hover], hoverinfo="text"))
    fig.update_xaxes(title=x_label, rangemode="tozero", tickformat=".1%" if share[chart["x"]] else None, zeroline=True)
    fig.update_yaxes(title=y_label, rangemode="tozero", tickformat=".1%" if share[chart["y"]] else None, zeroline=True)
    n = max(p["replications"] for p in points)
    return _layout(fig, chart.get("title_page", chart["title"]) + ("" if n > 1 else " — one replication: no interval"),
                   height=520, legend=dict(orientation="v", yanchor="top", y=1, x=1.02, title=dict(text="arm")),
                   margin=dict(l=80, r=30, t=70, b=60))


# --- Sensitivity and robustness (issue 45) ---------------------------------------------------------------------

SIGN_COLOURS = {1.0: "#1f77b4", -1.0: "#d62728", 0.0: "#7f7f7f"}
SIGN_NAMES = {1.0: "raises the output (μ > 0)", -1.0: "lowers the output (μ < 0)", 0.0: "no net direction (μ = 0)"}


def tornado(t: dict, outputs: list[dict] | None = None) -> go.Figure | None:
    """sensitivity.csv's tornado chart (`t["sensitivity"]`, a `habitat sensitivity` folder's): per output, the top
    parameters by importance as horizontal bars, largest on top, with their 95 % bootstrap intervals — Morris's μ*
    coloured by μ's sign (which way the parameter moves the output), or Sobol's total index with the first-order
    index beside it. One figure for every output (`outputs`, default all in `habitat_data.sensitivity_outputs`'
    order: the paired differences first, then the world check's retention and revenue figures): a menu chooses the
    output, the first shown. None without sensitivity.csv."""
    df = t.get("sensitivity")
    if df is None or df.empty:
        return None
    outputs = outputs if outputs is not None else hp.sensitivity_outputs(df)
    fig = go.Figure()
    buttons, groups, longest = [], [], 1
    for i, o in enumerate(outputs):
        summary = hp.tornado_summary(df, o)
        if summary is None:
            continue
        summary = summary.iloc[::-1]   # largest at the top
        names = [hp.short_parameter(p) for p in summary["parameter"]]
        longest = max(longest, len(names))
        first = len(fig.data)
        visible = not groups
        err = dict(type="data", symmetric=False, array=(summary["high"] - summary["value"]).clip(lower=0).fillna(0).tolist(),
                   arrayminus=(summary["value"] - summary["low"]).clip(lower=0).fillna(0).tolist(), color="#333", thickness=1.2)
        if summary["method"].iloc[0] == "morris":
            for sign in (1.0, -1.0, 0.0):
                part = summary["direction"] == sign
                if not part.any():
                    continue
                fig.add_trace(go.Bar(
                    y=[n for n, k in zip(names, part) if k], x=summary.loc[part, "value"], orientation="h",
                    marker_color=SIGN_COLOURS[sign], name=SIGN_NAMES[sign], visible=visible, legendgroup=str(sign),
                    error_x=dict(err, array=[a for a, k in zip(err["array"], part) if k],
                                 arrayminus=[a for a, k in zip(err["arrayminus"], part) if k]),
                    customdata=np.stack([summary.loc[part, "low"], summary.loc[part, "high"]], axis=1),
                    hovertemplate="%{y}: μ* %{x:.4g} (95 % CI %{customdata[0]:.4g} to %{customdata[1]:.4g})<extra></extra>"))
            axis = f"μ* (mean |elementary effect|, {spec_unit(o['unit'])} per range)"
        else:
            fig.add_trace(go.Bar(y=names, x=summary["value"], orientation="h", marker_color=PALETTE[0],
                                 name="total index (ST)", visible=visible, error_x=err,
                                 customdata=np.stack([summary["low"], summary["high"]], axis=1),
                                 hovertemplate="%{y}: ST %{x:.3f} (95 % CI %{customdata[0]:.3f} to %{customdata[1]:.3f})<extra></extra>"))
            fig.add_trace(go.Bar(y=names, x=summary["first_order"], orientation="h", marker_color=_alpha(PALETTE[1], 0.8),
                                 name="first-order index (S1)", visible=visible,
                                 hovertemplate="%{y}: S1 %{x:.3f}<extra></extra>"))
            axis = "Sobol index (share of the output's variance)"
        groups.append((first, len(fig.data), hp.output_label(o), axis))
    if not groups:
        return None
    total = len(fig.data)
    for first, last, label, axis in groups:
        mask = [first <= k < last for k in range(total)]
        buttons.append(dict(label=label[:90], method="update",
                            args=[{"visible": mask}, {"title.text": f"What moves {label}", "xaxis.title.text": axis}]))
    fig.update_layout(barmode="group")
    fig.update_yaxes(automargin=True)
    fig.update_xaxes(title=groups[0][3], rangemode="tozero")
    if len(buttons) > 1:
        fig.update_layout(updatemenus=[dict(buttons=buttons, direction="down", x=0, xanchor="left", y=1.13,
                                            yanchor="bottom", showactive=True, active=0)])
    return _layout(fig, f"What moves {groups[0][2]}", height=200 + 34 * longest,
                   margin=dict(l=70, r=30, t=120, b=60))


def spec_unit(unit: str) -> str:
    """A unit's label for people (the specification's units)."""
    return hp.spec.unit_labels().get(unit, unit)


STATE_COLOURS = {"held": GREEN, "flipped": RED, "zero": "#c7c7c7"}


def robustness(t: dict) -> go.Figure | None:
    """The verdict-by-world strip of a run with --robustness (robustness.csv): x the worlds (0: the defaults, then
    the plausible set's), y each arm · KPI of the experiment, each cell green where the paired difference keeps the
    defaults' sign, red where it flips, grey where its interval holds 0; experiment.csv's verdict beside each row."""
    strip = hp.robustness_strip(t)
    if strip is None:
        return None
    codes = {"held": 1, "zero": 0, "flipped": -1, None: None}
    z = [[codes[s] for s in line] for line in strip["states"]]
    text = [[f"world {w}{' (the defaults)' if w == 0 else ''}: {hp.ROBUSTNESS_STATES.get(s, 'not measured')}"
             f" — difference {d:.4g}" for w, s, d in zip(strip["worlds"], line, diffs)]
            for line, diffs in zip(strip["states"], strip["diffs"])]
    labels = [f"{row}  [{v}]" if v else row for row, v in zip(strip["rows"], strip["verdicts"])]
    fig = go.Figure(go.Heatmap(
        x=[str(w) for w in strip["worlds"]], y=labels, z=z, zmin=-1, zmax=1, text=text, hoverinfo="text",
        colorscale=[[0, STATE_COLOURS["flipped"]], [0.5, STATE_COLOURS["zero"]], [1, STATE_COLOURS["held"]]],
        showscale=False, xgap=1, ygap=1))
    for state, name in hp.ROBUSTNESS_STATES.items():   # the legend: one marker per state
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=name,
                                 marker=dict(symbol="square", size=12, color=STATE_COLOURS[state])))
    fig.update_xaxes(title="world (0: the scenario's defaults; 1…N: the plausible set's)", type="category")
    fig.update_yaxes(autorange="reversed", automargin=True)
    return _layout(fig, f"Verdict by world: does each difference against {strip['control']} keep its sign?",
                   height=170 + 22 * len(labels))


def renderer(chart: dict):
    """The function that draws a chart on the page: its kind's generic function with the chart's entry (`lines`,
    `bars`, `histogram`, `scatter`), or — a dedicated kind — the function of the kind's name."""
    if hp.spec.spec()["chart_kinds"][chart["kind"]]["renderer"] == "generic":
        draw = globals()[hp.spec.function_name(chart["kind"])]
        return lambda t: draw(t, chart)
    return globals()[hp.spec.function_name(chart["kind"])]


# Every chart of the specification, in its order: (chart id, the function that draws it). A chart whose kind has no
# function here fails at import; test_report_spec.py fails on a chart function no chart kind names.
CHARTS = [(c["id"], renderer(c)) for c in hp.spec.charts()]
