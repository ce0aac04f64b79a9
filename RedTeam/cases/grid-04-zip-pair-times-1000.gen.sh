#!/bin/sh
# case: two zipped axes of 1000 crossed with a third of 1000 = 10^6 points
# expect: reject
# exit: 2
# timeout: 5
# rss_mb: 512
# Prints the scenario on stdout.
printf 'name: grid-04\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\nsweep:\n'
printf '  rules.cooldown.minutes.free: [%s]\n  rules.cooldown.minutes.premium: [%s]\n  rules.milestones.hours_saved: [%s]\n  zip:\n    - [rules.cooldown.minutes.free, rules.cooldown.minutes.premium]\n' "$(seq -s, 1 1000)" "$(seq -s, 1 1000)" "$(seq -s, 1 1000)"
