#!/bin/sh
# case: Latin-1 (not UTF-8) bytes in the name: caf\xe9
# expect: reject
# Prints the scenario on stdout.
printf 'name: caf\351-latin1\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\n'
