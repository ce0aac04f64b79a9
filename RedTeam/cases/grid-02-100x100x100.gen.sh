#!/bin/sh
# case: sweep of three axes of 100 values = 10^6 points
# expect: reject
# exit: 2
# timeout: 5
# rss_mb: 512
# Prints the scenario on stdout.
printf 'name: grid-02\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\nsweep:\n'
printf '  rules.bypass.peek_seconds: [%s]\n  rules.bypass.mindfulness_seconds.breath: [%s]\n  rules.curfew.reminder_lead_minutes: [%s]\n' "$(seq -s, 1 100)" "$(seq -s, 1 100)" "$(seq -s, 0 99)"
