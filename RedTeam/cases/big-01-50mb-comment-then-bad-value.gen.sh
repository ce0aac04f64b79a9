#!/bin/sh
# case: a 50 MB comment block after valid keys, then horizon_days: -1
# expect: reject
# timeout: 15
# Prints the scenario on stdout.
printf 'name: big-01\nreplications: 1\npopulation:\n  installs: 150\n'; yes '# the quick brown fox jumps over the lazy dog, again and again and again' | head -c 52428800; printf '\nhorizon_days: -1\n'
