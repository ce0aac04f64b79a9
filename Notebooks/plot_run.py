#!/usr/bin/env python3
"""Writes every figure of a Habitat run as PNG (for people without Jupyter).

    python3 Notebooks/plot_run.py RUN_DIR [--out DIR]      (or: make plots RUN=RUN_DIR)

A `habitat calibrate` folder (one holding calibration.csv) gets its calibration trace and the fitted model's world
check instead; a `habitat sensitivity` folder (sensitivity.csv, issue 45) its tornado charts (tornado.png) and page.

PNGs go to RUN_DIR/plots/ unless --out says otherwise, one per chart of the report specification
(docs/report-spec.json), named after the chart, with the mode of the run's CSVs; the run's page, RUN_DIR/report.html
(report_page.py), is written too. Figures without data are skipped with a note saying why, from the specification:
experiment without arms, forecast without an acquisition curve, a product's own reports in another product's run.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import habitat_plots as hp  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", help="a run directory written by `habitat run` (or a `habitat compare` CSV: its page)")
    parser.add_argument("--out", help="directory for the PNGs (default RUN_DIR/plots)")
    args = parser.parse_args()
    if Path(args.run_dir).suffix == ".csv" and Path(args.run_dir).is_file():  # habitat compare's CSV: its page only
        return write_page(Path(args.run_dir))
    if hp.is_sensitivity_folder(args.run_dir):   # habitat sensitivity (issue 45): its tornado charts and its page
        return plot_sensitivity(Path(args.run_dir), Path(args.out) if args.out else Path(args.run_dir) / "plots")
    if (Path(args.run_dir) / "calibration.csv").is_file():
        return plot_calibration(Path(args.run_dir), Path(args.out) if args.out else Path(args.run_dir) / "plots")
    try:
        tables = hp.load_run(args.run_dir)
    except (FileNotFoundError, hp.ReportError) as e:
        print(f"plot_run: {e}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else Path(args.run_dir) / "plots"
    out.mkdir(parents=True, exist_ok=True)
    products = ", ".join(hp.run_products(args.run_dir))   # several: the arms are different products (issue 28)
    print(f"  product: {hp.product(tables) or (f'several: {products}' if products else 'unknown')}")
    for name, draw in hp.ALL:
        fig = draw(tables)
        if fig is None:
            print(f"  {name}: {hp.skip_reason(name, tables)} (skipped)")
            continue
        if not save(fig, name, out):
            return 1
    return write_page(Path(args.run_dir))


def write_page(target: Path) -> int:
    """The run's report.html beside its CSVs (or a comparison CSV's page), from the same tables as the PNGs."""
    import report_page
    return report_page.write_pages([target])


def save(fig, name: str, out: Path) -> bool:
    """Writes `fig` as `out/NAME.png`; an empty figure is an error (False), never a blank picture."""
    if hp.figure_is_empty(fig):
        print(f"plot_run: the {name} figure is empty", file=sys.stderr)
        return False
    path = out / f"{name}.png"
    fig.savefig(path, dpi=110)
    hp.spec.set_report_mode(path)
    print(f"  wrote {path}")
    return True


def plot_sensitivity(folder: Path, out: Path) -> int:
    """A `habitat sensitivity` folder: tornado.png (the first outputs some parameter moves, the paired differences
    first) and the folder's page."""
    try:
        df = hp.load_sensitivity(folder)
    except (FileNotFoundError, hp.ReportError) as e:
        print(f"plot_run: {e}", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    fig = hp.tornado({"sensitivity": df})
    if fig is None:
        print("  tornado: no parameter moves any output (every μ* or total index is 0) (skipped)")
    elif not save(fig, "tornado", out):
        return 1
    return write_page(folder)


def plot_calibration(cal_dir: Path, out: Path) -> int:
    """The trace and the fitted model's world check of a calibration folder."""
    import pandas as pd
    out.mkdir(parents=True, exist_ok=True)
    figures = [("calibration-trace", hp.calibration_trace(hp.load_calibration(cal_dir)))]
    check = cal_dir / hp.REPORTS["worldcheck"]
    if check.is_file():
        figures.append(("world-check", hp.world_check({"worldcheck": pd.read_csv(check, dtype={"replication": str, "arm": str})})))
    for name, fig in figures:
        if fig is None:
            print(f"plot_run: the {name} figure is empty", file=sys.stderr)
            return 1
        if not save(fig, name, out):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
