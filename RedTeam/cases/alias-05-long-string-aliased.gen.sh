#!/bin/sh
# case: a 1 MB string anchored once and aliased 50,000 times as trace_people
# expect: reject
# timeout: 10
# Prints the scenario on stdout.
printf 'name: alias-05\nhorizon_days: 10\nreplications: 1\nblob: &s "'; head -c 1048576 /dev/zero | tr '\0' 'x'; printf '"\npopulation:\n  installs: 150\noutputs:\n  trace_people: ['; for i in $(seq 1 50000); do printf '*s, '; done; printf '*s]\n'
