#!/usr/bin/env python3
"""Every world-check row of runs side by side (issue 39's closing note): the pooled value (replication `all`) with
its 95 % interval and verdict.

Usage: Calibration/tools/world_check_table.py LABEL=RUN_DIR [LABEL=RUN_DIR ...]
"""
import csv
import sys


def rows(folder):
    out = {}
    with open(f"{folder}/world-check.csv") as f:
        for r in csv.DictReader(f):
            if r["replication"] == "all":
                out[(r["product"], r["figure"])] = r
    return out


def cell(r):
    if r is None:
        return "—"
    v = r.get("simulated_mean") or ""
    if not v:
        return r.get("applies") or "n/a"
    lo, hi = r.get("ci_low") or "", r.get("ci_high") or ""
    ci = f" [{float(lo):.3g}–{float(hi):.3g}]" if lo and hi else ""
    mark = "✓" if r.get("inside") == "true" else "✗" if r.get("inside") == "false" else ""
    return f"{float(v):.3g}{ci} {mark}".strip()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = [a.split("=", 1) for a in sys.argv[1:]]
    tables = [(label, rows(folder)) for label, folder in runs]
    keys = []
    for _, t in tables:
        for k in t:
            if k not in keys:
                keys.append(k)
    print("| product | figure (range) | " + " | ".join(label for label, _ in tables) + " |")
    print("|---|---|" + "---|" * len(tables))
    for k in keys:
        first = next(t[k] for _, t in tables if k in t)
        rng = f"{first.get('range_low', '')}–{first.get('range_high', '')}"
        print(f"| {k[0]} | `{k[1]}` ({rng}) | " + " | ".join(cell(t.get(k)) for _, t in tables) + " |")
