#!/bin/sh
# case: a 2 MB quoted string as a rule value
# expect: reject
# timeout: 15
# Prints the scenario on stdout.
printf 'name: big-03\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\nrules:\n  spend:\n    lot_order: "'; head -c 2097152 /dev/zero | tr '\0' 'e'; printf '"\n'
