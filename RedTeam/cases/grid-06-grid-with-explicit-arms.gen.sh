#!/bin/sh
# case: two explicit arms crossed with a 1000 x 1000 sweep (2 x 10^6 arms)
# expect: reject
# exit: 2
# timeout: 5
# rss_mb: 512
# Prints the scenario on stdout.
printf 'name: grid-06\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\narms:\n  - name: base\n  - name: cheap\n    rules:\n      prices:\n        premium_monthly: 3.99\nsweep:\n'
printf '  rules.earn.abstinence_minutes: [%s]\n  rules.curfew.edit_lock_lead_minutes: [%s]\n' "$(seq -s, 1 500)" "$(seq -s, 0 1439)"
