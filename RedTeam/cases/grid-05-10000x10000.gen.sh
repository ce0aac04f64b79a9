#!/bin/sh
# case: sweep of 10^4 x 10^4 = 10^8 points
# expect: reject
# exit: 2
# timeout: 5
# rss_mb: 512
# Prints the scenario on stdout.
printf 'name: grid-05\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\nsweep:\n'
printf '  rules.milestones.hours_saved: [%s]\n  population.installs: [%s]\n' "$(seq -s, 1 10000)" "$(seq -s, 1 10000)"
