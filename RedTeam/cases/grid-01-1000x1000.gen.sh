#!/bin/sh
# case: sweep of 1000 x 1000 = 10^6 points (earn cap premium x cooldown pro)
# expect: reject
# exit: 2
# timeout: 5
# rss_mb: 512
# Prints the scenario on stdout.
printf 'name: grid-01\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\nsweep:\n'
printf '  rules.earn.daily_cap_minutes.premium: [%s]\n  rules.cooldown.minutes.pro: [%s]\n' "$(seq -s, 0 999)" "$(seq -s, 0 999)"
