#!/bin/sh
# case: 20,000 nested lists as sweep values
# expect: reject
# Prints the scenario on stdout.
printf 'name: nesting-04\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\nsweep:\n  rules.tokens.unlock_minutes: '; head -c 20000 /dev/zero | tr '\0' '['; printf '5'; head -c 20000 /dev/zero | tr '\0' ']'; echo
