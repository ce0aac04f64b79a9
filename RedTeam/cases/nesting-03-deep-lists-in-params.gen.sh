#!/bin/sh
# case: 80,000 nested flow lists as a persona parameter
# expect: reject
# Prints the scenario on stdout.
printf 'name: nesting-03\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\n  personas:\n    - name: worker\n      share: 1\n      params:\n        self_efficacy: '; head -c 80000 /dev/zero | tr '\0' '['; printf '0.5'; head -c 80000 /dev/zero | tr '\0' ']'; echo
