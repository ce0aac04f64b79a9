#!/bin/sh
# case: 50,000 persona entries
# expect: reject
# Prints the scenario on stdout.
printf 'name: big-05\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\n  personas:\n'; seq -f '    - {name: worker, share: %g}' 1 50000
