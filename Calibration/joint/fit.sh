#!/usr/bin/env bash
# The joint fit of issue 26 (Calibration/README.md, "One population, one fit"): Scroll Off and Earned Access simulated
# at every evaluation with the same behaviour values, one loss over both world checks (Calibration/joint/targets.csv).
# Usage: Calibration/joint/fit.sh [HABITAT] [OUT]   (default: .build/release/habitat, /tmp/habitat-joint-fit)
# Cost: 160 evaluations + 24 for identifiability, about 7 s each on 2 cores (release build): about 25 minutes.
# Start: the first joint fit's best (without the plans view, E7) with buy_constant at -6.5 (Scroll Off's plans need
# it) and the trial boost at 1.5 (so Earned Access's trial offer keeps the utility the first fit gave it).
set -euo pipefail
HABITAT=${1:-.build/release/habitat}
OUT=${2:-/tmp/habitat-joint-fit}
cd "$(dirname "$0")/../.."
"$HABITAT" calibrate Scenarios/scroll-off-baseline.yaml --also Scenarios/earned-access-baseline.yaml \
  --people 2000 --days 60 --replications 1 --targets Calibration/joint/targets.csv --budget 160 --out "$OUT" \
  --set behavior.churn.base_hazard=0.6189 --set behavior.churn.value_weight=2.414 \
  --set behavior.engagement.app_open_per_pickup_scale=0.0359 --set behavior.purchase.buy_constant=-6.5 \
  --set behavior.purchase.renew_intercept=-0.6089 --set behavior.purchase.inertia=0.3621 \
  --set behavior.purchase.trial_intercept=0.7412 --set behavior.refund.value_weight=0.8528 \
  --set behavior.dormant.leave_constant=-5.248 --set behavior.purchase.trial_start_boost=1.5 \
  --fit behavior.churn.base_hazard --fit behavior.churn.value_weight --fit behavior.engagement.app_open_per_pickup_scale \
  --fit behavior.purchase.buy_constant --fit behavior.purchase.renew_intercept --fit behavior.purchase.inertia \
  --fit behavior.purchase.trial_intercept --fit behavior.refund.value_weight --fit behavior.dormant.leave_constant \
  --fit behavior.engagement.plans_view_probability --fit behavior.engagement.frustration.detour \
  --fit behavior.purchase.trial_start_boost
