#!/usr/bin/env bash
# Issue 39's fit (Calibration/README.md, "The fit"): one population for Scroll Off, Earned Access and Nudge, every
# evaluation simulating all three with the same behaviour values, at the 90-day horizon the reports use.
# Two blocks, each a Nelder–Mead simplex over the parameters its targets pin, the other block held:
#   A. why people stay — the retention curves of all three products (targets-retention.csv);
#   B. money — conversion, trial → paid, renewal, refunds, revenue (targets-money.csv), block A's best held.
# Usage: Calibration/why-people-stay/fit.sh [HABITAT] [OUT]   (default: .build/release/habitat, /tmp/habitat-why-people-stay)
# Cost: block A 45 evaluations + 16 for identifiability, block B 35 + 12, each three runs of 1,000 × 90 × 1
# (about 30 s on 2 cores, release build): about 55 minutes. BLOCK_A=0 or BLOCK_B=0 skips a block.
set -euo pipefail
HABITAT=${1:-.build/release/habitat}
OUT=${2:-/tmp/habitat-why-people-stay}
cd "$(dirname "$0")/../.."
SCENARIOS=(Scenarios/scroll-off-baseline.yaml --also Scenarios/earned-access-baseline.yaml --also Scenarios/nudge-baseline.yaml)
SIZE=(--people 1000 --days 90 --replications 1)
# Block A starts from a pilot fit (the same targets without Earned Access's D1, 1,000 × 60, 90 evaluations) of the
# mechanisms alone.
if [[ "${BLOCK_A:-1}" == 1 ]]; then
"$HABITAT" calibrate "${SCENARIOS[@]}" "${SIZE[@]}" --targets Calibration/why-people-stay/targets-retention.csv --budget 45 --out "$OUT-retention" \
  --set behavior.churn.base_hazard=0.3143 --set behavior.churn.value_weight=2.050 --set behavior.retention.trying_share=0.5806 \
  --set behavior.retention.trying_daily_drop=0.7762 --set behavior.engagement.novelty_start=0.1388 \
  --set behavior.dormant.leave_constant=-2.485 --set behavior.dormant.come_back_constant=-2.945 \
  --fit behavior.churn.base_hazard --fit behavior.churn.value_weight --fit behavior.retention.trying_share \
  --fit behavior.retention.trying_daily_drop --fit behavior.engagement.novelty_start --fit behavior.dormant.leave_constant \
  --fit behavior.dormant.come_back_constant --fit behavior.engagement.app_open_per_pickup_scale
fi
# Block A, second stage: the first stage (45 evaluations) left Scroll Off's curve too flat, Earned Access's too low
# and Nudge's day 1 too high — one population cannot meet them with the shared constants alone. Each product's own
# mechanism joins the fit: Earned Access's detour frustration (its gate), the cue of a notification (Nudge's
# reminders), with Scroll Off's app-open scale; novelty held at the first stage's value (it barely moved the loss).
A1=(--set behavior.churn.base_hazard=0.3445 --set behavior.churn.value_weight=1.822 --set behavior.retention.trying_share=0.6377
  --set behavior.retention.trying_daily_drop=0.6225 --set behavior.engagement.novelty_start=0.1604
  --set behavior.dormant.leave_constant=-2.809 --set behavior.dormant.come_back_constant=-1.751
  --set behavior.engagement.app_open_per_pickup_scale=0.05627)
if [[ "${BLOCK_A2:-1}" == 1 ]]; then
"$HABITAT" calibrate "${SCENARIOS[@]}" "${SIZE[@]}" --targets Calibration/why-people-stay/targets-retention.csv --budget 50 --out "$OUT-retention-2" \
  "${A1[@]}" \
  --fit behavior.churn.base_hazard --fit behavior.churn.value_weight --fit behavior.retention.trying_share \
  --fit behavior.retention.trying_daily_drop --fit behavior.dormant.leave_constant --fit behavior.dormant.come_back_constant \
  --fit behavior.engagement.app_open_per_pickup_scale --fit behavior.engagement.frustration.detour --fit behavior.engagement.cue.notification
fi
# Block B: money, with block A's best held (dormant.leave_constant back at its component value: no target pins it,
# retention-2/identifiability.csv) and purchase.inertia at its component value (no target pins it either: issue 26).
# The renewal and trial intercepts start from their literature values: the fitted ones leaned on the defect of
# issue 38 (a subscription ended at uninstall).
A2=(--set behavior.churn.base_hazard=0.3621 --set behavior.churn.value_weight=1.36 --set behavior.retention.trying_share=0.8445
  --set behavior.retention.trying_daily_drop=0.6686 --set behavior.engagement.novelty_start=0.1604
  --set behavior.dormant.leave_constant=-2.5 --set behavior.dormant.come_back_constant=1.23
  --set behavior.engagement.app_open_per_pickup_scale=0.07543 --set behavior.engagement.frustration.detour=0.003273
  --set behavior.engagement.cue.notification=2.345 --set behavior.purchase.inertia=0.3)
# A first run (money-1/) also fitted Nudge's download → paid and revenue per install: Nudge's seed sells only at its own
# limits and Settings (issue 38), few meet them, and the shared buy constant rose until Scroll Off and Earned Access sold
# to 5–6 % of installs (loss 4.8). Nudge's money figures are structurally out of reach of a shared constant: checked,
# not fitted (targets-money.csv). refund.value_weight was pinned by no target there: held at its component value.
# The buy constant starts between money-1's best (−4.44, selling too much) and issue 26's value (−6.58, at which the
# new population buys almost nothing: a simplex started there stalled in 12 evaluations).
if [[ "${BLOCK_B:-1}" == 1 ]]; then
"$HABITAT" calibrate "${SCENARIOS[@]}" "${SIZE[@]}" --targets Calibration/why-people-stay/targets-money.csv --budget 35 --out "$OUT-money" \
  "${A2[@]}" --set behavior.purchase.renew_intercept=0.2412 --set behavior.purchase.trial_intercept=-1.003 \
  --set behavior.purchase.trial_start_boost=1.804 --set behavior.refund.value_weight=3.0 --set behavior.purchase.buy_constant=-5.0 \
  --fit behavior.purchase.buy_constant --fit behavior.purchase.trial_intercept --fit behavior.purchase.trial_start_boost \
  --fit behavior.purchase.renew_intercept --fit behavior.engagement.plans_view_probability
fi
