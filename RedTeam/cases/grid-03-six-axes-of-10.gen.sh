#!/bin/sh
# case: sweep of six axes of 10 values = 10^6 points
# expect: reject
# exit: 2
# timeout: 5
# rss_mb: 512
# Prints the scenario on stdout.
printf 'name: grid-03\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\nsweep:\n'
for k in cooldown.minutes.free cooldown.minutes.premium cooldown.minutes.pro earn.daily_cap_minutes.free earn.daily_cap_minutes.pro curfew.edit_lock_lead_minutes; do printf '  rules.%s: [%s]\n' $k "$(seq -s, 10 10 100)"; done
