#!/usr/bin/env python3
"""Executes the notebooks against the given run directories and fails if a cell errors or a figure is empty.

    python3 Notebooks/run_notebooks.py [--require-all] RUN_DIR [RUN_DIR ...]

Each run's product is read from its reports (the `product` column: scroll-off, earned-access, ...). A notebook whose
metadata names reports not every run writes (`"habitat": {"reports": ["unlocks.csv"]}`) draws only the runs that
write them — which runs those are is the report specification's (docs/report-spec.json): the products that write
each report (`products`; a run whose arms are different products writes what any of its arms' products write) and
the runs it is written for (`written`): 01, 02 and 04 need the funnel, retention and battery reports (every product
with an app; not a run of `none`, no app), 03-token-revenue-share token-revenue-share.csv (Scroll Off),
07-earned-access unlocks.csv (Earned Access), 08-product-comparison product-comparison.csv (runs whose arms are
different products); the others draw any run. Every notebook is executed against every given run of a product it draws, e.g. `make test`'s

    python3 Notebooks/run_notebooks.py --require-all BASELINE PRICE FORECAST EARNED_ACCESS PRODUCTS

runs 01–06 against the three Scroll Off runs, 01, 02, 04–07 against the Earned Access run and all of them against
PRODUCTS, a run whose arms are Scroll Off, Earned Access and none. A notebook no given
run applies to is reported as not run; with --require-all that is a failure (so a missing Earned Access run cannot
leave 07 untested). Also fails if a committed notebook holds outputs or execution counts (they are stored clean).
HABITAT_PRODUCTS_DIR is set to the first given run whose arms are different products: 09 (Nudge) reads Nudge against
none from it whatever run it draws. A `habitat sensitivity` folder (issue 45) among the arguments is drawn only by
the notebooks whose metadata says `"habitat": {"folder": "sensitivity"}` (11), and they draw nothing else; 11 reads a
run with --robustness from HABITAT_ROBUSTNESS_DIR and a plausible set from HABITAT_PLAUSIBLE_DIR where set.
"""
import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import habitat_plots as hp  # noqa: E402


def stored_clean(path: Path) -> list:
    nb = nbformat.read(path, as_version=4)
    return [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and (c.get("outputs") or c.get("execution_count"))]


def notebook_reports(nb) -> list:
    """The reports a notebook needs beyond those every run writes (its metadata `habitat.reports`), as the
    specification's entries; a name the specification does not know is an error."""
    names = nb.metadata.get("habitat", {}).get("reports") or []
    unknown = [n for n in names if n not in hp.spec.by_name()]
    if unknown:
        raise SystemExit(f"run_notebooks: the notebook names reports the specification lacks: {', '.join(unknown)}")
    return [hp.spec.by_name()[n] for n in names]


def draws(reports: list, shape: tuple) -> bool:
    """Whether a run of `shape` (`habitat_plots.run_shape`: its products in arm order, arms, acquisition curve)
    writes every report a notebook needs: some product of its arms writes it (the specification's `products`) and
    the run meets the report's condition (`written`: e.g. product-comparison.csv only for runs whose arms are
    different products)."""
    return all(hp.spec.run_writes(r, *shape) for r in reports)


# Run before each execution of a notebook in its kernel: a clean namespace (`%reset -f`), no figure of the run
# before (pyplot's and habitat_plots.FIGURES, which the notebooks' last cell checks), and the run to draw.
PRELUDE = """%reset -f
import os as _os, sys as _sys
_os.environ["HABITAT_RUN_DIR"] = {run!r}
if "habitat_plots" in _sys.modules:
    _sys.modules["habitat_plots"].FIGURES.clear()
    _sys.modules["habitat_plots"].plt.close("all")
del _os, _sys"""


def execute(nb_path: Path, runs: list) -> int:
    """Executes the notebook once per run, top to bottom, in one kernel: each execution starts from PRELUDE (an
    empty namespace, no figures, HABITAT_RUN_DIR the run), so it sees nothing of the one before but the modules
    already imported — pandas, matplotlib and plotly load once per notebook, not once per run (about half the time
    of `make notebooks`). Returns the failures, each printed with its run and the error's last line."""
    os.environ["MPLBACKEND"] = "Agg"
    os.environ["HABITAT_RUN_DIR"] = str(runs[0])
    client = NotebookClient(nbformat.read(nb_path, as_version=4), timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(HERE)}})
    failures = 0
    with client.setup_kernel():
        for run in runs:
            start = time.monotonic()
            client.nb = nbformat.read(nb_path, as_version=4)
            client.nb.cells.insert(0, nbformat.v4.new_code_cell(PRELUDE.format(run=str(run))))
            client.reset_execution_trackers()
            try:
                for index, cell in enumerate(client.nb.cells):
                    client.execute_cell(cell, index)
                print(f"ok   {nb_path.name} on {run.name} ({time.monotonic() - start:.1f} s)")
            except CellExecutionError as e:
                failures += 1
                first = str(e).strip().splitlines()
                print(f"FAIL {nb_path.name} on {run}: {first[-1] if first else e}")
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], usage=__doc__.splitlines()[2].strip())
    parser.add_argument("runs", nargs="*", metavar="RUN_DIR", help="run directories written by `habitat run`")
    parser.add_argument("--require-all", action="store_true",
                        help="fail when a notebook draws none of the given runs (e.g. no run writing the reports 07 needs)")
    args = parser.parse_args()
    if not args.runs:
        print(__doc__, file=sys.stderr)
        return 2
    runs = [Path(a).resolve() for a in args.runs]
    missing = [str(r) for r in runs if not r.is_dir()]
    if missing:
        print(f"run_notebooks: not a directory: {', '.join(missing)}", file=sys.stderr)
        return 2
    # Issue 45: a `habitat sensitivity` folder is no run; only the notebooks for such folders (metadata
    # "habitat": {"folder": "sensitivity"}: 11) draw it, and they draw nothing else.
    analyses = [run for run in runs if hp.is_sensitivity_folder(run)]
    runs = [run for run in runs if run not in analyses]
    for folder in analyses:
        print(f"sensitivity  {folder.name}")
    shapes = {run: hp.run_shape(run) for run in runs}
    for run, (products, arms, _) in shapes.items():
        print(f"run  {run.name}: {', '.join(products) if products else 'product unknown (only notebooks for any product)'}"
              f"{f' ({arms} arms)' if arms > 1 else ''}")
    # A notebook that sets one product against no app (09: Nudge's things done on time against none) reads the
    # comparison from the first given run whose arms are different products (HABITAT_PRODUCTS_DIR).
    comparison = [f for f in hp.spec.files() if f["written"] == "products"]
    compared = next((run for run in runs if comparison and all(hp.spec.run_writes(f, *shapes[run]) for f in comparison)),
                    None)
    if compared is not None:
        os.environ["HABITAT_PRODUCTS_DIR"] = str(compared)
    notebooks = sorted(HERE.glob("*.ipynb"))
    failures = 0
    for nb_path in notebooks:
        dirty = stored_clean(nb_path)
        if dirty:
            print(f"FAIL {nb_path.name}: stored with outputs in cells {dirty} (clear them before committing)")
            failures += 1
    executed = 0
    for nb_path in notebooks:
        notebook = nbformat.read(nb_path, as_version=4)
        wanted = notebook_reports(notebook)
        if notebook.metadata.get("habitat", {}).get("folder") == "sensitivity":
            mine = analyses
        else:
            mine = [run for run in runs if draws(wanted, shapes[run])]
        if not mine and notebook.metadata.get("habitat", {}).get("folder") == "sensitivity":
            line = f"{nb_path.name}: no habitat sensitivity folder given"
            failures += args.require_all
            print(f"FAIL {line} (--require-all)" if args.require_all else f"--   {line} (not run)")
            continue
        if not mine:
            owners = sorted({p for r in wanted for p in (hp.spec.owners(r) or [])})
            when = sorted({hp.spec.spec()["written_when"][r["written"]] for r in wanted if r["written"] != "always"})
            line = (f"{nb_path.name}: no run that writes {', '.join(r['file'] for r in wanted)} given"
                    + (f" ({' or '.join(owners)})" if owners else "") + (f" (written for {'; '.join(when)})" if when else ""))
            if args.require_all:
                failures += 1
                print(f"FAIL {line} (--require-all)")
            else:
                print(f"--   {line} (not run)")
            continue
        failures += execute(nb_path, mine)
        executed += len(mine)
    print(f"{len(notebooks)} notebooks, {len(runs)} runs, {len(analyses)} sensitivity folders, {executed} executions: "
          f"{'all passed' if failures == 0 else f'{failures} failure(s)'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
