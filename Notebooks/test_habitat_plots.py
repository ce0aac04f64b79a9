#!/usr/bin/env python3
"""Checks that the runner's own safety nets work (an empty figure is detected, a non-run directory is refused) and
the figure functions on small synthetic frames (funnel targets, world check, Earned Access unlocks, revenue; issue 28:
the products compared on the same people, their personas, target-app minutes by status, a run of none, a run whose
arms are different products, a malformed product-comparison.csv; the generic `histogram` kind on a hand-made
study.csv: replications counted per value, pooled rows left out, marks, too few replications; issue 44: the generic
`scatter` kind on a hand-made scan-policy.csv: a point per arm at the means, 95 % error bars both ways, labels, one
replication without bars)."""
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import habitat_plots as hp  # noqa: E402


def check_t95():
    import numpy as np
    """A band over n replications uses n − 1 degrees of freedom, as the Swift reports do (GSL's inverse CDF)."""
    assert hp._t95(2) == 12.706205          # two replications: 1 degree of freedom
    assert hp._t95(3) == 4.302653
    assert hp._t95(10) == 2.262157
    assert hp._t95(31) == 2.042272
    assert hp._t95(500) == 1.959964
    assert np.isnan(hp._t95(1))


def main() -> int:
    check_t95()
    fig = hp._figure()
    fig.add_subplot(111)
    assert hp.figure_is_empty(fig), "an axes with nothing drawn must count as empty"
    try:
        hp.assert_figures_drawn()
        raise SystemExit("assert_figures_drawn accepted an empty figure")
    except AssertionError:
        pass
    fig.axes[0].plot([0, 1], [0, 1])
    assert not hp.figure_is_empty(fig)
    with tempfile.TemporaryDirectory() as d:
        try:
            hp.load_run(d)
            raise SystemExit("load_run accepted a directory without reports")
        except FileNotFoundError as e:
            assert "missing kpis.csv" in str(e), e
    check_product_reports()
    check_products_of_arms()
    check_product_comparison_figure()
    check_personas_and_status_minutes()
    check_malformed_product_comparison()
    check_old_names_read_renamed()
    check_funnel_targets_where_they_apply()
    check_funnel_targets_on_their_basis()
    check_world_check_figure()
    check_unlocks_figure()
    check_revenue_figure()
    check_histogram_figure()
    check_scatter_figure()
    check_tornado_figure()
    check_robustness_strip()
    check_plausible_widths_figure()
    print("habitat_plots self-checks passed")
    return 0


def check_funnel_targets_where_they_apply():
    """A stage meeting its step-conversion target must look like it meets it: on the share-of-installs axis its mark
    sits at the previous stage's share × the target (not at the target itself), on the step axis at the target."""
    import pandas as pd
    cols = ["scenario", "arm", "replication", "product", "stage_order", "stage", "stage_name", "window", "users",
            "rate_from_previous", "rate_from_start", "target_min", "target_max", "meets_target"]
    rows = [["s", "control", "1", "scroll-off", 1, "A0", "App opened", "", 100, 1.0, 1.0, None, None, None],
            ["s", "control", "1", "scroll-off", 2, "A1", "Permissions granted", "", 80, 0.8, 0.8, 0.75, None, "true"],
            ["s", "control", "1", "scroll-off", 3, "A1.5", "Implementation intention created", "", 80, 1.0, 0.8, 0.85, None,
             "true"],
            ["s", "control", "1", "scroll-off", 4, "A4", "First spend", "", 40, 0.5, 0.4, 0.2, 0.3, "false"]]
    table = pd.DataFrame(rows, columns=cols).astype({"replication": str})
    fig = hp.funnel({"funnel": table})
    top, bottom = fig.axes[0], fig.axes[1]

    def marks(ax, stage):  # y of the horizontal target marks drawn over stage index `stage`
        return sorted(round(line.get_ydata()[0], 9) for line in ax.get_lines()
                      if len(line.get_xdata()) == 2 and line.get_ydata()[0] == line.get_ydata()[1]
                      and stage - 0.5 < sum(line.get_xdata()) / 2 < stage + 0.5)
    assert marks(top, 2) == [0.68], marks(top, 2)             # 0.8 × 0.85: met (bar at 0.8), not the raw 0.85
    assert marks(bottom, 2) == [0.85], marks(bottom, 2)
    assert marks(top, 3) == [0.16, 0.24], marks(top, 3)       # 0.8 × 0.2 and 0.8 × 0.3 (a range)
    assert marks(bottom, 3) == [0.2, 0.3], marks(bottom, 3)
    assert marks(top, 0) == [], "the first stage has no target"
    labels = [t.get_text().replace("\n", " ") for t in bottom.get_xticklabels()]
    assert labels == ["A0 App opened", "A1 Permissions granted", "A1.5 Implementation intention created",
                      "A4 First spend"], labels
    legend = [t.get_text() for t in top.get_legend().get_texts()]
    assert legend[0] == "control" and any("previous stage's share × target" in t for t in legend), legend
    assert any("✗" == t.get_text() for t in bottom.texts), "a missed step target is marked"
    assert not hp.figure_is_empty(fig)
    # The targets are those the file carries, whatever the product: an Earned Access funnel writes its target columns
    # empty (seed 003 sets none) and is drawn without marks; the same targets in another product's file are drawn.
    other = pd.DataFrame(rows, columns=cols).astype({"replication": str}).assign(
        product="earned-access", target_min=None, target_max=None, meets_target=None)
    fig = hp.funnel({"funnel": other})
    for ax in fig.axes[:2]:
        assert all(marks(ax, stage) == [] for stage in range(4)), "no targets where the file carries none"
        assert not any("✗" == t.get_text() for t in ax.texts)
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["control"]
    carried = pd.DataFrame(rows, columns=cols).astype({"replication": str}).assign(product="earned-access")
    fig = hp.funnel({"funnel": carried})
    assert marks(fig.axes[0], 2) == [0.68] and marks(fig.axes[1], 3) == [0.2, 0.3], "targets the file carries are drawn"


def check_funnel_targets_on_their_basis():
    """Issue 38: a stage whose target is a share of installs (Nudge N6 "Day-7 retention 35%" over the installs observed
    past day 7, N7 "Free → Pro conversion 4%" over every install) is judged on `rate_on_basis`, not on a step
    conversion it does not have: on the share-of-installs axis its mark sits at the basis's share of installs × the
    target, on the bottom axis at the target against rate_on_basis."""
    import pandas as pd
    cols = ["scenario", "arm", "replication", "product", "stage_order", "stage", "stage_name", "window", "users",
            "rate_from_previous", "rate_from_start", "target_min", "target_max", "meets_target", "target_basis",
            "basis_people", "rate_on_basis"]
    rows = [["s", "control", "1", "nudge", 1, "N0", "First open", "", 100, 1.0, 1.0, None, None, None, "previous_stage", 100, 1.0],
            ["s", "control", "1", "nudge", 2, "N5", "First nudge acted on", "8d from N0", 10, 0.1, 0.1, None, None, None,
             "previous_stage", 100, 0.1],
            ["s", "control", "1", "nudge", 3, "N6", "Active on day 7", "", 20, None, 0.2, 0.35, None, "false",
             "installs_observed_past_day_7", 80, 0.25],
            ["s", "control", "1", "nudge", 4, "N7", "Pro purchase", "", 5, None, 0.05, 0.04, None, "true", "installs", 100, 0.05]]
    table = pd.DataFrame(rows, columns=cols).astype({"replication": str})
    fig = hp.funnel({"funnel": table})
    top, bottom = fig.axes[0], fig.axes[1]

    def marks(ax, stage):
        return sorted(round(line.get_ydata()[0], 9) for line in ax.get_lines()
                      if len(line.get_xdata()) == 2 and line.get_ydata()[0] == line.get_ydata()[1]
                      and stage - 0.5 < sum(line.get_xdata()) / 2 < stage + 0.5)
    assert marks(top, 2) == [0.28], marks(top, 2)      # 0.8 of installs observed past day 7 × 0.35
    assert marks(bottom, 2) == [0.35], marks(bottom, 2)
    assert marks(top, 3) == [0.04] and marks(bottom, 3) == [0.04], (marks(top, 3), marks(bottom, 3))
    heights = [round(b.get_height(), 9) for b in bottom.patches]
    assert heights[2:] == [0.25, 0.05], heights        # the rate on the basis, not a step conversion
    assert any("✗" == t.get_text() for t in bottom.texts), "N6 misses its target"
    shown = hp.funnel_basis(hp.file_targets(table, "funnel"))
    assert list(shown["_measure"]) == [1.0, 0.1, 0.25, 0.05], list(shown["_measure"])
    assert hp.basis_words("installs_observed_past_day_7") == "of installs observed past day 7"
    assert hp.basis_words("previous_stage") == "of the previous stage"


def check_world_check_figure():
    """A figure inside its range is drawn green between the band's edges, one outside red beyond them, and a
    figure the run cannot measure is not drawn as a point but named with its reason."""
    import pandas as pd
    cols = ["scenario", "arm", "replication", "product", "figure", "unit", "source", "range_low", "range_high",
            "simulated_mean", "ci_low", "ci_high", "inside", "applies"]
    rows = [["s", "control", "", "p", "retention_d1", "fraction", "Adjust 2023", 0.22, 0.30, 0.26, 0.25, 0.27, "true", "yes"],
            ["s", "control", "", "p", "retention_d7", "fraction", "Adjust 2023", 0.10, 0.16, 0.30, 0.28, 0.32, "false", "yes"],
            ["s", "control", "", "p", "retention_d30", "fraction", "Adjust 2023", 0.03, 0.08, None, None, None, None,
             "needs horizon >= 31 days"]]
    fig = hp.world_check({"worldcheck": pd.DataFrame(rows, columns=cols).astype({"replication": str})})
    ax = fig.axes[0]
    points = {int(round(line.get_ydata()[0])): (line.get_xdata()[0], line.get_color()) for line in ax.get_lines()
              if len(line.get_xdata()) == 1}
    assert abs(points[0][0] - 0.5) < 1e-9 and points[0][1] == "tab:green", points   # 0.26 is the middle of 0.22–0.30
    assert points[1][0] > 1 and points[1][1] == "tab:red", points
    assert 2 not in points, "a figure without a value is not drawn"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["retention_d1", "retention_d7"]
    assert any("retention_d30 (needs horizon >= 31 days)" in t.get_text() for t in fig.texts)
    assert "1 of 2" in ax.get_title()



def _write(path: Path, header: str, *rows: str):
    path.write_text("\n".join([header, *rows]) + "\n")


def _expect_refused(run: Path, what: str, message: str):
    """load_run must refuse `run` with a FileNotFoundError whose text contains `message`."""
    try:
        hp.load_run(run)
    except FileNotFoundError as e:
        assert message in str(e), e
        return
    raise SystemExit(f"load_run accepted {what}")


def check_product_reports():
    """A run needs the reports every product writes, plus its own product's: an Earned Access run loads without
    token-revenue-share.csv but not without unlocks.csv; the product is read from the reports' `product` column."""
    with tempfile.TemporaryDirectory() as d:
        run = Path(d)
        keys = "scenario,arm,replication,product"
        for f in hp.spec.required("earned-access"):
            if f["file"] != "unlocks.csv":
                _write(run / f["file"], keys + ",x", "s,control,1,earned-access,0")
        _expect_refused(run, "an Earned Access run without unlocks.csv", "earned-access run without unlocks.csv")
        _write(run / "unlocks.csv", keys + ",day,method,people", "s,control,1,earned-access,0,all,1")
        t = hp.load_run(run)
        assert hp.run_product(run) == "earned-access" and hp.product(t) == "earned-access"
        assert "tokens" not in t and hp.chart(t, 'token-share') is None
        assert "scroll-off" in hp.skip_reason("token-share", t)
        for f in hp.spec.required("earned-access"):
            if f["file"] != "unlocks.csv":
                _write(run / f["file"], keys + ",x", "s,control,1,scroll-off,0")
        _expect_refused(run, "a Scroll Off run without token-revenue-share.csv", "token-revenue-share.csv")


def check_products_of_arms():
    """Issue 28: a run of none (no app) needs only kpis.csv of the files every run wrote before it (its funnel,
    retention, battery… do not exist: their figures are skipped, saying which products write them); a run whose arms
    are different products needs what each of its products writes."""
    with tempfile.TemporaryDirectory() as d:
        run = Path(d)
        keys = "scenario,arm,replication,product"
        _write(run / "kpis.csv", keys + ",kpi,unit,mean", "s,control,all,none,pickups_per_day,count_per_day,70")
        t = hp.load_run(run)
        assert hp.run_products(run) == ["none"] and hp.product(t) == "none"
        for name, draw in hp.ALL:
            assert draw(t) is None, f"{name} drawn for a run of none without its file"
        assert "written by runs of every product with an app only; this run is none" in hp.skip_reason("funnel", t), \
            hp.skip_reason("funnel", t)
        _write(run / "kpis.csv", keys + ",kpi,unit,mean", "s,so,all,scroll-off,pickups_per_day,count_per_day,70",
               "s,nothing,all,none,pickups_per_day,count_per_day,71")
        assert hp.run_products(run) == ["scroll-off", "none"] and hp.run_product(run) is None
        _expect_refused(run, "a run with a Scroll Off arm without the files Scroll Off writes",
                        "scroll-off run without activation-funnel.csv")
        assert hp.run_shape(run) == (["scroll-off", "none"], 2, False)


COMPARISON_COLUMNS = ["scenario", "arm", "replication", "product", "persona", "kpi", "unit", "kind", "mean", "ci_low",
                      "ci_high", "replications", "none_arm", "vs_none_diff", "vs_none_ci_low", "vs_none_ci_high",
                      "first_product_arm", "vs_first_diff", "vs_first_ci_low", "vs_first_ci_high", "true_effect",
                      "true_effect_ci_low", "true_effect_ci_high", "claim"]


def _comparison_frame(personas=("all",)):
    """product-comparison.csv of arms a (first product), b and none: target-app minutes 30 / 45 / 90 (a − none −60,
    interval −70…−50; b − none −45, −50…−40), battery 0.02 / 0.05 / 0 (differences the same), net revenue per
    install $0.5 / $0.8 (shared), and a's claim 40 min (35…45) against a true effect of 60 (50…70)."""
    import pandas as pd
    rows = []
    for persona in personas:
        for arm, minutes, battery, money in [("a", 30.0, 0.02, 0.5), ("b", 45.0, 0.05, 0.8), ("none", 90.0, 0.0, None)]:
            d = {"a": (-60, -70, -50), "b": (-45, -50, -40), "none": (None, None, None)}[arm]
            rows.append(["s", arm, "all", arm, persona, "target_app_minutes_per_day", "minutes", "neutral", minutes,
                         minutes - 2, minutes + 2, 2, "none", *d, "a", None, None, None, None, None, None, None])
            bd = (battery, battery - 0.01, battery + 0.01) if arm != "none" else (None, None, None)
            rows.append(["s", arm, "all", arm, persona, "battery_pct_per_24h_mean", "pct", "neutral", battery,
                         battery, battery, 2, "none", *bd, "a", None, None, None, None, None, None, None])
            if money is not None:
                rows.append(["s", arm, "all", arm, persona, "net_revenue_per_install", "usd", "shared", money,
                             money - 0.3, money + 0.3, 2, "none", None, None, None, "a", None, None, None, None, None,
                             None, None])
    rows.append(["s", "a", "all", "a", "all", "median_time_saved_per_day", "minutes", "claim", 40.0, 35.0, 45.0, 2,
                 "none", None, None, None, "a", None, None, None, 60.0, 50.0, 70.0,
                 "time saved per day; true effect: none − arm of target_app_minutes_per_day"])
    return pd.DataFrame(rows, columns=COMPARISON_COLUMNS).astype({"replication": str})


def check_product_comparison_figure():
    """Each KPI's panel holds each arm's mean with its interval (an arm a colour, the same everywhere); effect against
    cost puts each product at (its cost, −its difference from none) with both intervals; the claims panel the claimed
    figure beside the true effect. None without the file."""
    import numpy as np
    t = {"products": _comparison_frame()}
    rows = hp.product_rows(t)
    assert hp.comparison_arms(rows) == ["a", "b", "none"] and hp.none_arm(rows) == "none"
    points = hp.effect_and_costs(rows)
    assert [p["arm"] for p in points] == ["a", "b"], points
    assert points[0]["effect"] == (60.0, 50.0, 70.0) and points[1]["effect"] == (45.0, 40.0, 50.0), points
    assert points[0]["costs"][0] == (0.02, 0.01, 0.03) and points[1]["costs"][1] == (0.8, 0.5, 0.8 + 0.3), points
    fig = hp.product_comparison(t)
    assert fig is not None and not hp.figure_is_empty(fig)
    titles = [ax.get_title() for ax in fig.axes]
    minutes = fig.axes[titles.index("target app minutes per day (minutes)")]
    def dots(ax):   # the markers (error bars' caps are one-point lines too)
        return [line for line in ax.get_lines() if len(line.get_xdata()) == 1 and line.get_marker() in ("o", "D")]
    marks = [(line.get_xdata()[0], line.get_ydata()[0], line.get_color()) for line in dots(minutes)]
    assert [(x, y) for x, y, _ in marks] == [(0, 30.0), (1, 45.0), (2, 90.0)], marks
    colours = [c for _, _, c in marks]
    assert len(set(colours)) == 3, colours
    battery = next(ax for ax in fig.axes if ax.get_title().startswith("Effect against battery"))
    points = {(round(line.get_xdata()[0], 6), line.get_ydata()[0]) for line in dots(battery)}
    assert points == {(0.02, 60.0), (0.05, 45.0)}, points
    money = next(ax for ax in fig.axes if ax.get_title().startswith("Effect against money"))
    assert {(round(line.get_xdata()[0], 6), line.get_ydata()[0]) for line in dots(money)} == {(0.5, 60.0), (0.8, 45.0)}
    claims = next(ax for ax in fig.axes if ax.get_title().startswith("What each product claims"))
    xs = sorted(line.get_xdata()[0] for line in dots(claims))
    assert xs == [40.0, 60.0], xs
    # The same arm has the same colour in the effect panels as in the KPI panels.
    effect_colours = {line.get_color() for line in dots(battery)}
    assert effect_colours == set(colours[:2]), (effect_colours, colours)
    assert hp.product_comparison({}) is None, "no product-comparison.csv: no figure"
    # A file whose pooled rows have an empty replication (the report keys' pooled form) reads the same.
    empty = _comparison_frame().assign(replication=np.nan)
    assert len(hp.product_rows({"products": empty})) == len(rows)


def check_personas_and_status_minutes():
    """The persona view: a panel per neutral KPI, a row per persona, each product's difference from none; the
    learning view: a panel per arm, a line per status. None where there is nothing to draw."""
    import pandas as pd
    frame = _comparison_frame(personas=("all", "student", "worker"))
    fig = hp.product_personas(hp.product_rows({"products": frame}, persona=None))
    assert fig is not None and len(fig.axes) == 2, fig.axes
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["all", "student", "worker"]
    xs = sorted({round(x, 6) for line in fig.axes[0].get_lines() if line.get_marker() == "o" for x in line.get_xdata()})
    assert xs == [-60.0, -45.0], xs
    assert hp.product_personas(hp.product_rows({"products": frame.assign(vs_none_diff=None)}, persona=None)) is None
    assert hp.product_personas(hp.product_rows({"products": frame}, persona=None), "shared", "mean") is not None
    cols = ["scenario", "arm", "replication", "product", "week_since_install", "status", "person_days",
            "target_app_minutes_per_day"]
    rows = [["s", arm, "all", arm, w, status, 100, minutes + w] for arm in ("a", "none") for w in range(3)
            for status, minutes in ([("all", 50), ("active", 30), ("dormant", 60), ("untreated", 90)] if arm == "a"
                                    else [("all", 90), ("untreated", 90)])]
    learning = pd.DataFrame(rows, columns=cols).astype({"replication": str})
    fig = hp.status_minutes(learning)
    assert fig is not None and len([ax for ax in fig.axes if ax.get_title()]) == 2
    labels = [line.get_label() for line in fig.axes[0].get_lines()]
    assert labels[:3] == list(hp.LEARNING_STATUSES.values()), labels
    assert hp.status_minutes(learning.drop(columns=["target_app_minutes_per_day"])) is None


def check_old_names_read_renamed():
    """A report written before issue 39 reads under today's names, with a warning: retention.csv's reading
    product_in_use is in_use, product-comparison.csv's retention_dN is in_use_dN (CONTRACT.md: an old name still
    works and warns)."""
    import warnings
    with tempfile.TemporaryDirectory() as d:
        run = Path(d)
        _write(run / "kpis.csv", "scenario,arm,replication,product,kpi,unit,mean",
               "s,a,all,none,pickups_per_day,count_per_day,70")
        header = "scenario,arm,replication,product,cohort,segment,activity,day,cohort_size,active,retention"
        _write(run / "retention.csv", header, "s,a,1,none,all,all,product_in_use,1,10,5,0.5",
               "s,a,1,none,all,all,app_opened,1,10,2,0.2")
        frame = _comparison_frame()
        frame.loc[frame.index[0], "kpi"] = "retention_d7"
        frame.to_csv(run / "product-comparison.csv", index=False)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            t = hp.load_run(run)
        assert list(t["retention"]["activity"]) == ["in_use", "app_opened"], t["retention"]
        assert "in_use_d7" in set(t["products"]["kpi"]) and "retention_d7" not in set(t["products"]["kpi"])
        assert sum("renamed in issue 39" in str(w.message) for w in caught) == 2, [str(w.message) for w in caught]


def check_malformed_product_comparison():
    """load_run refuses a product-comparison.csv without a column of the specification, or with a word where a
    number belongs, naming the file, the column and the line."""
    with tempfile.TemporaryDirectory() as d:
        run = Path(d)
        _write(run / "kpis.csv", "scenario,arm,replication,product,kpi,unit,mean",
               "s,none,all,none,pickups_per_day,count_per_day,70")
        frame = _comparison_frame()
        frame.drop(columns=["vs_none_ci_high"]).to_csv(run / "product-comparison.csv", index=False)
        try:
            hp.load_run(run)
            raise SystemExit("load_run accepted a product-comparison.csv without vs_none_ci_high")
        except hp.ReportError as e:
            assert "product-comparison.csv" in str(e) and "missing column vs_none_ci_high" in str(e), e
        frame.assign(true_effect=["x"] + [None] * (len(frame) - 1)).to_csv(run / "product-comparison.csv", index=False)
        try:
            hp.load_run(run)
            raise SystemExit("load_run accepted a word in true_effect")
        except hp.ReportError as e:
            assert "column true_effect holds 'x' on line 2 — not a number" in str(e), e
        frame.to_csv(run / "product-comparison.csv", index=False)
        assert len(hp.load_run(run)["products"]) == len(frame)


def _unlocks_frame(arms=("control",)):
    """Two replications × days 0–3; day 3 reaches only 4 of 10 installs. Per replication r (1, 2) and day d:
    grants quest = r + d, emergency = 1, credits = d; credits earned 10·r, spent 2·d, expired d; quest completed 3,
    abandoned 1 (replication 1) or 3 (replication 2); emergency completed 1, abandoned 0."""
    import pandas as pd
    cols = ["scenario", "arm", "replication", "product", "day", "method", "people", "gate_visits", "attempts", "grants",
            "minutes_granted", "credits_earned", "credits_spent", "credits_expired", "completed", "abandoned"]
    rows = []
    for arm in arms:
        for r in (1, 2):
            for d in range(4):
                people = 10 if d < 3 else 4
                quest, emergency, credits = r + d, 1, d
                q_abandoned = 1 if r == 1 else 3
                methods = {"credits": (credits, credits, 0, 2 * d, 0, 0),
                           "quest": (quest + q_abandoned, quest, 0, 0, 3, q_abandoned),
                           "emergency": (emergency, emergency, 0, 0, 1, 0)}
                total = [sum(v[i] for v in methods.values()) for i in range(6)]
                rows.append(["s", arm, str(r), "earned-access", d, "all", people, 20, total[0], total[1], 5 * total[1],
                             10 * r, 2 * d, d, total[4], total[5]])
                for m, (att, grants, _, spent, done, gone) in methods.items():
                    rows.append(["s", arm, str(r), "earned-access", d, m, people, 0, att, grants, 5 * grants, 0, spent, 0,
                                 done, gone])
            # The pooled rows ("all" replications) are sums: the figure must not count them as a replication.
            rows.append(["s", arm, "all", "earned-access", 0, "all", 20, 999, 999, 999, 999, 999, 999, 999, 999, 999])
    return pd.DataFrame(rows, columns=cols).astype({"replication": str})


def check_unlocks_figure():
    """Unlocks through the generic `lines` renderer (issue 42, from Earned Access's fragment): (a) grants per person
    by method, mean over replications; (b) credits earned/spent/expired per person; days few installs reach shaded;
    several arms drawn apart; None without the report."""
    import numpy as np
    fig = hp.chart({"unlocks": _unlocks_frame()}, "unlocks")
    assert fig is not None and not hp.figure_is_empty(fig)
    a, b = [ax for ax in fig.axes if ax.get_lines()][:2]
    people = np.array([10, 10, 10, 4])
    days = np.arange(4)
    quest = ((1 + days) / people + (2 + days) / people) / 2        # mean over the replications of grants / people
    colours = {"credits": "C0", "quest": "C1", "emergency": "C2"}

    def line(ax, colour):
        found = [ln for ln in ax.get_lines() if ln.get_color() == colour and len(ln.get_xdata()) == 4]
        assert len(found) == 1, (colour, [ln.get_color() for ln in ax.get_lines()])
        return found[0]
    assert np.allclose(line(a, colours["quest"]).get_ydata(), quest), line(a, "C1").get_ydata()
    assert np.allclose(line(a, colours["emergency"]).get_ydata(), 1 / people)
    assert np.allclose(line(a, colours["credits"]).get_ydata(), days / people)
    assert np.allclose(line(a, "C3").get_ydata(), quest + 1 / people + days / people)   # all methods
    assert list(line(a, "C1").get_xdata()) == [0, 1, 2, 3]
    assert np.allclose(line(b, "C0").get_ydata(), 15 / people)  # (10 + 20) / 2 per replication
    assert np.allclose(line(b, "C1").get_ydata(), 2 * days / people)
    assert np.allclose(line(b, "C2").get_ydata(), days / people)
    legend = [t.get_text() for t in a.get_legend().get_texts()]
    assert legend[:4] == ["credits", "quest", "emergency", "all methods"] and "≥ 3" in legend[-1], legend
    spans = [p for p in a.patches if abs(p.get_x() - 2.5) < 1e-9 and p.get_width() > 0]
    assert spans, "days few installs reach are shaded"
    # Several arms: one colour per arm, one line style per method.
    fig = hp.chart({"unlocks": _unlocks_frame(arms=("control", "quest-1"))}, "unlocks")
    a = fig.axes[0]
    styles = {(ln.get_color(), ln.get_linestyle()) for ln in a.get_lines()}
    assert len(styles) == 8 and len({c for c, _ in styles}) == 2, styles   # 4 series (the methods and all) × 2 arms
    assert any(t.get_text() == "arm quest-1" for t in a.get_legend().get_texts())
    assert hp.chart({}, "unlocks") is None, "no unlocks.csv (a Scroll Off run): no figure"


def matplotlib_colour(name):
    import matplotlib.colors as mc
    return mc.to_rgb(name)


def check_revenue_figure():
    """revenue.csv has no row for a replication without money: it counts as 0 in the mean, not as missing."""
    import pandas as pd
    cols = ["scenario", "arm", "replication", "product", "month", "source", "gross_usd", "refunds_usd", "store_fee_usd",
            "net_usd", "transactions", "paying_people", "cost_usd"]
    rows = [["s", "control", "2", "scroll-off", "2026-01", "subscriptions", 20.0, 0, 6.0, 14.0, 2, 2, 0.0],
            ["s", "control", "2", "scroll-off", "2026-03", "subscriptions", 10.0, 0, 3.0, 7.0, 1, 1, 0.0],
            ["s", "control", "2", "scroll-off", "total", "subscriptions", 30.0, 0, 9.0, 21.0, 3, 3, 0.0],
            ["s", "control", "all", "scroll-off", "total", "subscriptions", 30.0, 0, 9.0, 21.0, 3, 3, 0.0]]
    kpis = pd.DataFrame({"arm": ["control"] * 3, "replication": ["1", "2", "all"], "product": ["scroll-off"] * 3})
    t = {"revenue": pd.DataFrame(rows, columns=cols).astype({"replication": str}), "kpis": kpis}
    fig = hp.revenue(t)
    monthly, whole, paying = fig.axes[:3]
    assert [round(p.get_height(), 6) for p in monthly.patches] == [7.0, 0.0, 3.5]   # 2026-02 had no money: 0
    assert [t.get_text() for t in monthly.get_xticklabels()] == ["2026-01", "2026-02", "2026-03"]
    # The money columns in file order: gross, refunds, store fee, net, cost.
    assert [round(p.get_height(), 6) for p in whole.patches] == [15.0, 0.0, 4.5, 10.5, 0.0]
    assert list(paying.get_lines()[0].get_ydata()) == [1.0, 0.0, 0.5]
    empty = {"revenue": t["revenue"].iloc[0:0], "kpis": kpis}
    assert hp.revenue(empty) is None, "a run without money has no revenue figure"
    # token-revenue-share.csv of a run in which nothing was sold: only the `total` rows (issue 25: only the charter's
    # chips, a small run may sell nothing). No figure, and the reason says so.
    tcols = ["scenario", "arm", "replication", "product", "month", "token_gross_usd", "subscription_gross_usd", "other_gross_usd",
             "total_gross_usd", "token_share", "threshold", "within_threshold", "tokens_sold", "token_buyers", "cap_hits"]
    tokens = pd.DataFrame([["s", "control", r, "scroll-off", "total", 0, 0, 0, 0, None, 0.2, None, 0, 0, 0] for r in ("1", "2", "all")],
                          columns=tcols)
    nothing = {"tokens": tokens, "kpis": kpis}
    assert hp.chart(nothing, 'token-share') is None, "a run without money has no token-share figure"
    assert hp.skip_reason("token-share", nothing) == "no money in this run"


def study_frame(counts: dict, people: int = 8):
    """A hand-made study.csv (Lazuri's fragment): per figure the count of each replication, `people` each, and a
    pooled row (replication all: the sums) that a histogram must not count."""
    import pandas as pd
    rows = []
    for figure, per_replication in counts.items():
        for r, k in enumerate(per_replication, start=1):
            rows.append({"scenario": "s", "arm": "control", "replication": str(r), "product": "lazuri",
                         "figure": figure, "people": people, "count": k})
        rows.append({"scenario": "s", "arm": "control", "replication": "all", "product": "lazuri", "figure": figure,
                     "people": people * len(per_replication), "count": sum(per_replication)})
    return pd.DataFrame(rows)


STUDY_COUNTS = {"week_kept": [8, 3, 3], "checklist_completed": [0, 0, 8], "achievement_week": [1, 2, 2],
                "onboarding_stalled": [2, 1, 5]}


def check_histogram_figure():
    """The generic `histogram` kind (Lazuri's study chart) on a hand-made study.csv of 3 replications (the chart's
    min_replications lowered to 3): a panel per figure, in the specification's order, each bar the replications with
    that count from 0 to the largest `people` (8: the pooled row's 24 people and count 14 are not counted), the
    thesis's mark as a dashed vertical line at its x, the share at or above it written on the panel; with the
    chart's own min_replications (20) nothing is drawn and skip_reason says a histogram needs many replications."""
    chart = hp.spec.chart("lazuri-study")
    t = {"study": study_frame(STUDY_COUNTS)}
    fig = hp.histogram(t, dict(chart, min_replications=3))
    assert fig is not None and not hp.figure_is_empty(fig), "the histogram drew nothing"
    axes = [ax for ax in fig.axes if ax.get_visible()]
    titles = [ax.get_title() for ax in axes]
    labels = hp.spec.value_labels("study", "figure")
    assert titles == [f"({chr(97 + i)}) {labels[f]}" for i, f in enumerate(STUDY_COUNTS)], titles
    expected = {"week_kept": [0, 0, 0, 2, 0, 0, 0, 0, 1], "checklist_completed": [2, 0, 0, 0, 0, 0, 0, 0, 1],
                "achievement_week": [0, 1, 2, 0, 0, 0, 0, 0, 0], "onboarding_stalled": [0, 1, 1, 0, 0, 1, 0, 0, 0]}
    readings = {"week_kept": "8 of 8 in 33.3 % of simulated studies (1 of 3)",
                "checklist_completed": "8 of 8 in 33.3 % of simulated studies (1 of 3)",
                "achievement_week": "mean 1.7 of 8 over 3 simulated studies",
                "onboarding_stalled": "2 of 8 or more in 66.7 % of simulated studies (2 of 3); exactly 2: 33.3 %"}
    marks = {"week_kept": 8, "checklist_completed": 8, "achievement_week": None, "onboarding_stalled": 2}
    for ax, figure in zip(axes, STUDY_COUNTS):
        bars = sorted((round(p.get_x() + p.get_width() / 2), p.get_height()) for p in ax.patches)
        assert [x for x, _ in bars] == list(range(9)), (figure, bars)
        assert [h for _, h in bars] == expected[figure], (figure, [h for _, h in bars], expected[figure])
        texts = [x.get_text() for x in ax.texts]
        assert readings[figure] in texts, (figure, texts)
        vertical = [ln.get_xdata()[0] for ln in ax.get_lines() if ln.get_linestyle() == "--"]
        assert vertical == ([marks[figure]] if marks[figure] is not None else []), (figure, vertical)
    hp.plt.close(fig)
    # Too few replications: no histogram of three, and plot_run's note says why.
    assert hp.histogram(t, chart) is None, "a histogram of 3 replications was drawn (min_replications 20)"
    reason = hp.skip_reason("lazuri-study", dict(t, kpis=t["study"]))
    assert "needs many replications" in reason and "has 3 replications" in reason and "at least 20" in reason, reason


def policy_frame(points: dict, replications: int = 3):
    """A hand-made scan-policy.csv (Clavis's fragment): per arm, `replications` rows whose false-accept and
    false-reject shares are the arm's (x, y) plus −0.01, 0, +0.01 … by replication, and a pooled row (replication
    all) of wild values a scatter must not use."""
    import pandas as pd
    rows = []
    for arm, (x, y) in points.items():
        for r in range(1, replications + 1):
            d = 0.01 * (r - (replications + 1) / 2)
            rows.append({"scenario": "s", "arm": arm, "replication": str(r), "product": "clavis", "key_scans": 100,
                         "false_rejects": round(100 * (y + d)), "false_reject_share": y + d, "look_alike_scans": 20,
                         "false_accepts": round(20 * (x + d)), "false_accept_share": x + d, "p50_seconds": 2.0,
                         "p90_seconds": 4.5, "camera_seconds": 300.0})
        rows.append({"scenario": "s", "arm": arm, "replication": "all", "product": "clavis", "key_scans": 300,
                     "false_rejects": 270, "false_reject_share": 0.9, "look_alike_scans": 60, "false_accepts": 54,
                     "false_accept_share": 0.9, "p50_seconds": 2.0, "p90_seconds": 4.5, "camera_seconds": 900.0})
    return pd.DataFrame(rows)


POLICY_POINTS = {"threshold 0.85": (0.20, 0.05), "threshold 0.90": (0.10, 0.10), "threshold 0.95": (0.03, 0.30)}


def check_scatter_figure():
    """The generic `scatter` kind (Clavis's trade-off curve, issue 44) on a hand-made scan-policy.csv of three arms
    and three replications: one point per arm at the mean over replications (the pooled rows' 0.9 not used), error
    bars in both directions of half-width t × sd / √n, each point labelled by its arm; with one replication the
    points alone, no bars; without rows, nothing."""
    import numpy as np
    chart = hp.spec.chart("clavis-tradeoff")
    t = {"scan_policy": policy_frame(POLICY_POINTS)}
    fig = hp.scatter(t, chart)
    assert fig is not None and not hp.figure_is_empty(fig), "the scatter drew nothing"
    ax = fig.axes[0]
    points = sorted((float(ln.get_xdata()[0]), float(ln.get_ydata()[0])) for ln in ax.get_lines()
                    if ln.get_marker() == "o")
    assert np.allclose(points, sorted(POLICY_POINTS.values())), points
    half = 0.01 * hp._t95(3) / np.sqrt(3)   # sd of (−0.01, 0, +0.01) is 0.01
    bars = [seg for c in ax.collections for seg in c.get_segments()]
    assert len(bars) == 6, f"{len(bars)} error bars, expected an x and a y bar per arm"
    lengths = sorted(round(float(np.ptp(np.asarray(seg)[:, 0]) + np.ptp(np.asarray(seg)[:, 1])), 9) for seg in bars)
    assert np.allclose(lengths, [2 * half] * 6), (lengths, 2 * half)
    labels = sorted(x.get_text() for x in ax.texts)
    assert labels == sorted(POLICY_POINTS), labels
    assert "3 replications" in fig._suptitle.get_text(), fig._suptitle.get_text()
    hp.plt.close(fig)
    one = hp.scatter({"scan_policy": policy_frame(POLICY_POINTS, replications=1)}, chart)
    assert one is not None and not one.axes[0].collections, "one replication: error bars drawn"
    assert len([ln for ln in one.axes[0].get_lines() if ln.get_marker() == "o"]) == 3, "one replication: not 3 points"
    hp.plt.close(one)
    assert hp.scatter({}, chart) is None, "a scatter without scan-policy.csv"


SENSITIVITY_COLUMNS = ["scenario", "arm", "replication", "product", "quantity", "kpi", "unit", "control_arm", "parameter",
                       "low", "high", "range_source", "method", "points", "undefined_points", "output_mean",
                       "output_sd", "rank", "mu_star", "mu_star_ci_low", "mu_star_ci_high", "mu", "sigma", "s1",
                       "s1_ci_low", "s1_ci_high", "st", "st_ci_low", "st_ci_high"]


def sensitivity_frame(parameters: int = 12):
    """A hand-made Morris sensitivity.csv: outputs arm_mean pickups_per_day (μ* = k for parameter k, μ's sign
    alternating), paired_diff net_revenue_usd (μ* = 13 − k) and a world_figure nothing moves (μ* 0)."""
    import pandas as pd
    rows = []
    for quantity, kpi, unit, control, star in [("arm_mean", "pickups_per_day", "count_per_day", "", lambda k: float(k)),
                                               ("world_figure", "peak_hour", "hour", "", lambda k: 0.0),
                                               ("paired_diff", "net_revenue_usd", "usd", "control", lambda k: 13.0 - k)]:
        for k in range(1, parameters + 1):
            mu = star(k) * (1 if k % 2 else -1)
            rows.append(["s", "b", "all", "scroll-off", quantity, kpi, unit, control, f"behavior.p{k}", 0, 1,
                         "validated", "morris", 39, 0, 5.0, 1.0, 0, star(k), star(k) * 0.8, star(k) * 1.2, mu,
                         abs(mu), None, None, None, None, None, None])
    return pd.DataFrame(rows, columns=SENSITIVITY_COLUMNS)


def check_tornado_figure():
    """Issue 45: the tornado figure puts the paired differences first, draws the top 10 parameters of each output
    largest on top with μ*'s interval and μ's sign as colour, leaves out an output nothing moves; the Sobol summary
    takes the total index with the first-order one beside it; no sensitivity.csv, no figure."""
    import numpy as np
    df = sensitivity_frame()
    outputs = hp.sensitivity_outputs(df)
    assert [o["quantity"] for o in outputs] == ["paired_diff", "arm_mean", "world_figure"], outputs
    top = hp.tornado_summary(df, outputs[0])
    assert list(top["parameter"]) == [f"behavior.p{k}" for k in range(1, 11)], list(top["parameter"])
    assert list(top["direction"]) == [1.0, -1.0] * 5 and np.allclose(top["low"], top["value"] * 0.8)
    fig = hp.tornado({"sensitivity": df})
    assert fig is not None and not hp.figure_is_empty(fig)
    axes = [ax for ax in fig.axes if ax.patches]
    assert len(axes) == 2, f"{len(axes)} panels: an output nothing moves must be left out"
    assert "net_revenue_usd" in axes[0].get_title() and "pickups_per_day" in axes[1].get_title()
    widths = [p.get_width() for p in axes[0].patches]
    assert widths == sorted(widths) and len(widths) == 10 and widths[-1] == 12.0, widths   # largest on top
    colours = {matplotlib_colour(p.get_facecolor()[:3]) for p in axes[0].patches}
    assert len(colours) == 2, "μ's sign is not shown as two colours"
    hp.plt.close(fig)
    sobol = df.assign(method="sobol", mu_star=None, mu_star_ci_low=None, mu_star_ci_high=None, mu=None, sigma=None,
                      st=df["mu_star"] / 20, st_ci_low=df["mu_star"] / 25, st_ci_high=df["mu_star"] / 15,
                      s1=df["mu_star"] / 40)
    top = hp.tornado_summary(sobol, hp.sensitivity_outputs(sobol)[0])
    assert np.allclose(top["value"], top["first_order"] * 2) and (top["direction"] == 0).all()
    assert hp.tornado({}) is None


def check_robustness_strip():
    """Issue 45: robustness.csv's strip — a row per arm · KPI, a column per world, held where the sign is the
    defaults', flipped where not, zero where the world's interval holds 0; experiment.csv's verdict beside it."""
    import pandas as pd
    rows = []
    for world, diff, low, high, same in [(0, 2.0, 1.0, 3.0, "true"), (1, 1.0, 0.5, 1.5, "true"),
                                         (2, -1.0, -1.5, -0.5, "false"), (3, 0.2, -0.3, 0.7, "true")]:
        rows.append({"scenario": "s", "arm": "b", "replication": "all", "product": "scroll-off", "world": world,
                     "kpi": "net_revenue_usd", "unit": "usd", "control_arm": "a", "diff": diff, "diff_ci_low": low,
                     "diff_ci_high": high, "default_diff": 2.0, "same_sign": same})
    experiment = pd.DataFrame([{"arm": "b", "kpi": "net_revenue_usd", "robustness": "depends on behavior.p1"}])
    t = {"robustness": pd.DataFrame(rows), "experiment": experiment}
    strip = hp.robustness_strip(t)
    assert strip["worlds"] == [0, 1, 2, 3] and strip["rows"] == ["net_revenue_usd"], strip
    assert strip["states"] == [["held", "held", "flipped", "zero"]], strip["states"]
    assert strip["verdicts"] == ["depends on behavior.p1"] and strip["control"] == "a"
    fig = hp.robustness(t)
    assert fig is not None and not hp.figure_is_empty(fig)
    assert "depends on behavior.p1" in fig.axes[0].get_yticklabels()[0].get_text()
    hp.plt.close(fig)
    assert hp.robustness({}) is None


def check_plausible_widths_figure():
    """Issue 45: plausible-widths.csv drawn as each parameter's plausible range inside its prior (scaled 0…1)."""
    import pandas as pd
    widths = pd.DataFrame([{"parameter": "behavior.a", "prior_low": 0, "prior_high": 10, "default": 5,
                            "plausible_low": 4, "plausible_high": 5, "width_share": 0.1, "verdict": "pinned"},
                           {"parameter": "behavior.b", "prior_low": -1, "prior_high": 1, "default": 0,
                            "plausible_low": -1, "plausible_high": 1, "width_share": 1.0, "verdict": "wide"}])
    fig = hp.plausible_widths(widths)
    assert fig is not None and not hp.figure_is_empty(fig)
    spans = sorted((round(p.get_x(), 6), round(p.get_width(), 6)) for p in fig.axes[0].patches if p.get_height() == 0.5)
    assert spans == [(0.0, 1.0), (0.4, 0.1)], spans
    hp.plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())

