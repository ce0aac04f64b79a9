#!/usr/bin/env python3
"""Executes every notebook against each given run directory and fails if a cell errors or a figure is empty.

    python3 Notebooks/run_notebooks.py RUN_DIR [RUN_DIR ...]

Also fails if a committed notebook holds outputs or execution counts (they are stored clean). Used by `make test`.
"""
import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

HERE = Path(__file__).resolve().parent


def stored_clean(path: Path) -> list:
    nb = nbformat.read(path, as_version=4)
    return [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and (c.get("outputs") or c.get("execution_count"))]


def main() -> int:
    runs = [Path(a).resolve() for a in sys.argv[1:]]
    if not runs:
        print(__doc__, file=sys.stderr)
        return 2
    notebooks = sorted(HERE.glob("*.ipynb"))
    failures = 0
    for nb_path in notebooks:
        dirty = stored_clean(nb_path)
        if dirty:
            print(f"FAIL {nb_path.name}: stored with outputs in cells {dirty} (clear them before committing)")
            failures += 1
    for run in runs:
        for nb_path in notebooks:
            nb = nbformat.read(nb_path, as_version=4)
            os.environ["HABITAT_RUN_DIR"] = str(run)
            os.environ["MPLBACKEND"] = "Agg"
            client = NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(HERE)}})
            try:
                client.execute()
                print(f"ok   {nb_path.name} on {run.name}")
            except CellExecutionError as e:
                failures += 1
                first = str(e).strip().splitlines()
                print(f"FAIL {nb_path.name} on {run}: {first[-1] if first else e}")
    print(f"{len(notebooks)} notebooks × {len(runs)} runs: {'all passed' if failures == 0 else f'{failures} failure(s)'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
