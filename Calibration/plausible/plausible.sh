#!/bin/bash
# The plausible set Habitat ships (issue 45): history matching of the 18 shared behaviour constants of issue 39's fit
# (and the four it left unpinned) on every retention and money target of Scroll Off, Earned Access and Nudge jointly.
# About 12 minutes on 2 cores (release build). Run from the repository root.
set -e
F=""
for k in churn.base_hazard churn.value_weight retention.trying_share retention.trying_daily_drop engagement.novelty_start dormant.come_back_constant engagement.app_open_per_pickup_scale engagement.frustration.detour engagement.cue.notification purchase.buy_constant purchase.trial_intercept purchase.trial_start_boost purchase.renew_intercept engagement.plans_view_probability purchase.inertia purchase.cancel_at_trial_start dormant.leave_constant refund.value_weight; do F="$F --fit behavior.$k"; done
.build/release/habitat calibrate Scenarios/scroll-off-baseline.yaml --also Scenarios/earned-access-baseline.yaml --also Scenarios/nudge-baseline.yaml \
  --targets Calibration/plausible/targets.csv $F --plausible 30 --budget 75 --waves 3 --span 0.5 \
  --people 500 --days 90 --replications 1 --out Calibration/plausible
