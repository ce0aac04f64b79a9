#!/bin/bash
# Issue 45: every shipped price, trial-length, free-limit, hard-paywall and product-comparison experiment re-run in 8
# worlds of the shipped plausible set (Calibration/plausible/), 1,000 people × 90 days × 3 replications; the price
# tests again at 10 replications. Writes into Reports/robustness-<scenario>/; the committed experiment.csv (with the
# verdicts) and robustness-leader.csv of each are beside this script. About 50 min on 2 idle cores.
set -e
B=${HABITAT:-.build/release/habitat}
for s in premium-price-test earned-access-price-test earned-access-trial-length earned-access-free-limits nudge-free-limits \
         earned-access-hard-paywall scroll-off-hard-paywall product-comparison; do
  $B run Scenarios/$s.yaml --people 1000 --days 90 --replications 3 --robustness 8 --out Reports/robustness-$s
done
for s in premium-price-test earned-access-price-test; do
  $B run Scenarios/$s.yaml --people 1000 --days 90 --replications 10 --robustness 8 --out Reports/robustness-10-$s
done
