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
    print("habitat_plots self-checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
