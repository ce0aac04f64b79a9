#!/usr/bin/env python3
"""Checks that the runner's own safety nets work: an empty figure is detected, a non-run directory is refused."""
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import habitat_plots as hp  # noqa: E402


def main() -> int:
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
            assert "missing activation-funnel.csv" in str(e), e
    check_funnel_targets_where_they_apply()
    check_world_check_figure()
    print("habitat_plots self-checks passed")
    return 0


def check_funnel_targets_where_they_apply():
    """A stage meeting its step-conversion target must look like it meets it: on the share-of-installs axis its mark
    sits at the previous stage's share × the target (not at the target itself), on the step axis at the target."""
    import pandas as pd
    cols = ["scenario", "arm", "replication", "product", "stage_order", "stage", "stage_name", "window", "users",
            "rate_from_previous", "rate_from_start", "target_min", "target_max", "meets_target"]
    rows = [["s", "control", "1", "p", 1, "A0", "App opened", "", 100, 1.0, 1.0, None, None, None],
            ["s", "control", "1", "p", 2, "A1", "Permissions granted", "", 80, 0.8, 0.8, 0.75, None, "true"],
            ["s", "control", "1", "p", 3, "A1.5", "Implementation intention created", "", 80, 1.0, 0.8, 0.85, None, "true"],
            ["s", "control", "1", "p", 4, "A4", "First spend", "", 40, 0.5, 0.4, 0.2, 0.3, "false"]]
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


if __name__ == "__main__":
    sys.exit(main())
