#!/bin/sh
# case: 60,000 nested flow maps as a rule value
# expect: reject
# Prints the scenario on stdout.
printf 'name: nesting-01\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\nrules:\n  tokens: '; head -c 60000 /dev/zero | tr '\0' '@' | sed 's/@/{a: /g'; echo 1; head -c 60000 /dev/zero | tr '\0' '}'; echo
