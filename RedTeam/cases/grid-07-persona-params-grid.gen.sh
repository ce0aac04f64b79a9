#!/bin/sh
# case: sweep over persona parameters, 1000 x 1000 points
# expect: reject
# exit: 2
# timeout: 5
# rss_mb: 512
# Prints the scenario on stdout.
printf 'name: grid-07\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\nsweep:\n'
printf '  population.params.self_efficacy: [%s]\n  population.params.tech_comfort: [%s]\n' "$(seq -s, 0.0001 0.0001 0.1 | sed 's/,$//')" "$(seq -s, 0.0001 0.0001 0.1 | sed 's/,$//')"
