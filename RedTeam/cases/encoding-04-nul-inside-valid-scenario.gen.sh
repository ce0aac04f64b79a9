#!/bin/sh
# case: a valid scenario with one NUL byte inside the name
# expect: reject
# Prints the scenario on stdout.
printf 'name: enc\000oding-04\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\n'
