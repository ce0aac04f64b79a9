#!/bin/bash
# Issue 45: Morris screening of every behaviour parameter each baseline reads, ±50 % around its default, on the
# retention world figures (the app opened on day N), net revenue and minutes in the target apps. Writes into
# Reports/sensitivity-<baseline>/; the committed sensitivity.csv of each is beside this script. Run from the
# repository root with a release build. About 6 min (Scroll Off) to 2 min (Lazuri, Clavis) each on 2 idle cores.
set -e
B=${HABITAT:-.build/release/habitat}
K="retention_d1 retention_d7 retention_d30 revenue_per_install_d14_usd target_app_minutes_per_day"
$B sensitivity Scenarios/scroll-off-baseline.yaml --all --span 0.5 --samples 5 --people 500 --days 90 --replications 1 \
  --kpis $K net_revenue_usd download_to_paid_d35 --out Reports/sensitivity-scroll-off-baseline
$B sensitivity Scenarios/earned-access-baseline.yaml --all --span 0.5 --samples 4 --people 400 --days 90 --replications 1 \
  --kpis $K net_revenue_usd download_to_paid_d35 --out Reports/sensitivity-earned-access-baseline
$B sensitivity Scenarios/nudge-baseline.yaml --all --span 0.5 --samples 3 --people 300 --days 60 --replications 1 \
  --kpis $K net_revenue_usd download_to_paid_d35 --out Reports/sensitivity-nudge-baseline
for s in lazuri-baseline clavis-baseline; do   # neither sells anything: no money KPIs
  $B sensitivity Scenarios/$s.yaml --all --span 0.5 --samples 3 --people 200 --days 45 --replications 1 --kpis $K --out Reports/sensitivity-$s
done
