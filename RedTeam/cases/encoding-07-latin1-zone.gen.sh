#!/bin/sh
# case: Latin-1 bytes in a time-zone value
# expect: reject
# Prints the scenario on stdout.
printf 'name: encoding-07\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\n  time_zones:\n    - zone: America/S\343o_Paulo\n      share: 1\n'
