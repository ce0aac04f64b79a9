#!/bin/sh
# case: a 50 MB name
# expect: reject
# timeout: 15
# Prints the scenario on stdout.
printf 'horizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\nname: '; head -c 52428800 /dev/zero | tr '\0' 'q'; echo
