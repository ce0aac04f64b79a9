#!/bin/sh
# case: a list of 300,000 trace_people ids, the first negative
# expect: reject
# Prints the scenario on stdout.
printf 'name: big-06\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\noutputs:\n  trace_people: [-1, '; seq -s, 1 300000; printf ']\n'
