#!/bin/sh
# case: 20,000 copies of one unknown key
# expect: reject
# timeout: 10
# Prints the scenario on stdout.
printf 'name: dupkey-08\nhorizon_days: 10\npopulation:\n  installs: 150\n'; for i in $(seq 1 20000); do echo 'stray: 1'; done
