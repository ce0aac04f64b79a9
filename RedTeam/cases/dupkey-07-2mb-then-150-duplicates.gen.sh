#!/bin/sh
# case: a 2 MB file ending in 150 duplicated keys (refused in reasonable time)
# expect: reject
# timeout: 10
# Prints the scenario on stdout.
printf 'name: dupkey-07\nhorizon_days: 10\npopulation:\n  installs: 150\n'; yes '# filler filler filler filler filler filler filler filler filler filler filler' | head -c 2097152; echo; for i in $(seq 1 150); do echo "replications: $i"; done
