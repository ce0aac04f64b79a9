#!/usr/bin/env python3
"""Issue 42: the page's and the PNGs' charts before and after the renderers were driven by the specification.

    python3 Notebooks/compare_renderers.py [--base REV] [RUN_DIR ...]   (default: base HEAD's merge-base with main,
                                                                       every Reports/baselines/* run)

Checks out the Notebooks/ and docs/ of `--base` (and the products' report-spec fragments) into a temporary folder, then, in one Python process per side, draws
every chart of every run with each side's `habitat_charts.CHARTS` (the page) and `habitat_plots.ALL` (the PNGs) and
dumps each chart's data series: per Plotly trace its x and y, per matplotlib axes its lines' x and y and its bars'
heights. Prints, per run, the chart ids each side draws and every chart whose series differ (numbers compared to
1e-9 relative), and exits 1 on a difference. Trace names are compared apart (`--names`): a renamed legend entry is
not a data change.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

DUMP = r'''
import json, sys, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, sys.argv[1])
import numpy as np
import habitat_plots as hp
import habitat_charts as hc
load = getattr(hp, "load_run")

def clean(values):
    out = []
    for v in list(values):
        try:
            f = float(v)
            out.append(None if f != f else round(f, 9))
        except (TypeError, ValueError):
            out.append(str(v))
    return out

result = {}
for run in sys.argv[2:]:
    t = load(run)
    page, png = {}, {}
    for name, draw in hc.CHARTS:
        fig = draw(t)
        if fig is not None:
            page[name] = [[tr.name or "", clean(tr.x if tr.x is not None else []), clean(tr.y if tr.y is not None else [])]
                          for tr in fig.data if tr.hoverinfo != "skip" or tr.type == "bar"]
    for name, draw in hp.ALL:
        fig = draw(t)
        if fig is not None:
            series = []
            for ax in fig.axes:
                for ln in ax.get_lines():
                    series.append(["line", clean(ln.get_xdata()), clean(ln.get_ydata())])
                heights = [p.get_height() for p in ax.patches if hasattr(p, "get_height")]
                if heights:
                    series.append(["bars", [], clean(heights)])
            png[name] = series
        hp.plt.close("all")
    result[run] = {"page": page, "png": png}
json.dump(result, sys.stdout)
'''


def dump(notebooks: Path, runs: list[str]) -> dict:
    done = subprocess.run([sys.executable, "-c", DUMP, str(notebooks), *runs], capture_output=True, text=True,
                          cwd=notebooks)
    if done.returncode:
        sys.exit(f"compare_renderers: drawing with {notebooks} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


def same(a, b) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, float) and isinstance(y, float):
            if abs(x - y) > 1e-9 * max(1.0, abs(x), abs(y)):
                return False
        elif x != y:
            return False
    return True


def series_key(s) -> str:
    return json.dumps([s[1], s[2]])


def compare(old: list, new: list) -> list[str]:
    """Differences between two charts' series, matched as multisets of (x, y) (their order and names aside)."""
    problems = []
    unmatched = list(new)
    for s in old:
        match = next((n for n in unmatched if same(n[1], s[1]) and same(n[2], s[2])), None)
        if match is None:
            problems.append(f"series {s[0]!r} ({len(s[2])} values) not drawn after")
        else:
            unmatched.remove(match)
    problems += [f"series {n[0]!r} ({len(n[2])} values) new" for n in unmatched]
    return problems


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default=None)
    parser.add_argument("--names", action="store_true", help="also list renamed page traces")
    parser.add_argument("runs", nargs="*")
    args = parser.parse_args()
    base = args.base or subprocess.run(["git", "merge-base", "HEAD", "main"], cwd=ROOT, capture_output=True,
                                       text=True).stdout.strip()
    runs = [str(Path(r).resolve()) for r in args.runs] or [str(p) for p in sorted((ROOT / "Reports" / "baselines").iterdir()) if p.is_dir()]
    failed = False
    with tempfile.TemporaryDirectory(prefix="compare-renderers") as tmp:
        # The products' fragments too (issue 42: Sources/Products/*/report-spec.json): without them the old side's
        # specification knows no product's own files, nor which products have no money.
        archive = subprocess.run(["git", "archive", base, "Notebooks", "docs",
                                  ":(glob)Sources/Products/*/report-spec.json"], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        old = dump(Path(tmp) / "Notebooks", runs)
    new = dump(HERE, runs)
    for run in runs:
        print(f"{Path(run).name}:")
        for output in ("page", "png"):
            a, b = old[run][output], new[run][output]
            if sorted(a) != sorted(b):
                failed = True
                print(f"  {output}: charts before {sorted(a)}, after {sorted(b)}")
            differing = []
            for chart in sorted(set(a) & set(b)):
                problems = compare(a[chart], b[chart])
                if problems:
                    differing.append(chart)
                    print(f"  {output} {chart}: " + "; ".join(problems[:6]) + (" …" if len(problems) > 6 else ""))
                if args.names and output == "page":
                    renamed = [(x[0], y[0]) for x, y in zip(a[chart], b[chart]) if x[0] != y[0]]
                    if renamed:
                        print(f"  page {chart}: renamed {renamed[:4]}")
            failed |= bool(differing)
            print(f"  {output}: {len(b)} charts ({', '.join(sorted(b))}); "
                  + ("same series" if not differing else f"differ: {', '.join(differing)}"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
