#!/usr/bin/env python3
"""Why people stay, read from a run folder (issue 39): each arm's daily chance of leaving by week since install and
its D1/D7/D14/D30 retention in both readings.

Usage: Calibration/tools/retention_summary.py RUN_DIR [RUN_DIR ...]

* Daily chance of leaving in week w: 1 − (A[w+1] / A[w])^(1/7), A[w] the person-days of people still using the
  product (learning.csv, status `active`: installed and not dormant) in week w since install. It counts every way
  of leaving (uninstall, going dormant, revoking access, lifting the blocking) net of dormant people coming back,
  over the cohort observed in both weeks (installs spread over the run's first third, so late weeks hold fewer people).
* Retention: retention.csv, cohort `all`, segment `all`, day N: `app_opened` (a voluntary open) and the product-in-use
  reading (`in_use`, formerly `product_in_use`).
"""
import csv
import sys
from collections import defaultdict


def summarise(folder):
    active = defaultdict(dict)
    with open(f"{folder}/learning.csv") as f:
        for r in csv.DictReader(f):
            if r["status"] == "active" and r["replication"] != "all":
                key = (r["arm"], r["product"])
                w = int(r["week_since_install"])
                active[key][w] = active[key].get(w, 0) + int(r["person_days"])
    retention = defaultdict(dict)
    with open(f"{folder}/retention.csv") as f:
        for r in csv.DictReader(f):
            if r["cohort"] == "all" and r["segment"] == "all" and r["replication"] != "all":
                key = (r["arm"], r["product"], r["activity"])
                d = int(r["day"])
                n, a = retention[key].get(d, (0, 0))
                retention[key][d] = (n + int(r["cohort_size"]), a + int(r["active"]))
    for (arm, product), weeks in sorted(active.items()):
        if product == "none":
            continue
        hazards = []
        for w in range(1, 5):
            if weeks.get(w) and weeks.get(w + 1) is not None:
                hazards.append(f"{1 - (weeks[w + 1] / weeks[w]) ** (1 / 7):.3f}")
            else:
                hazards.append("n/a")
        print(f"{folder} {arm} {product}: daily chance of leaving, weeks 1–4: {' / '.join(hazards)}")
        for activity in sorted({k[2] for k in retention if k[:2] == (arm, product)}):
            days = retention[(arm, product, activity)]
            figs = []
            for d in (1, 7, 14, 30):
                n, a = days.get(d, (0, 0))
                figs.append(f"{a / n:.3f}" if n else "n/a")
            print(f"    {activity:>16}: D1 / D7 / D14 / D30 = {' / '.join(figs)}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for folder in sys.argv[1:]:
        summarise(folder)
