#!/bin/sh
# case: a UTF-16 surrogate encoded as UTF-8 (ED A0 80) in a comment
# expect: reject
# Prints the scenario on stdout.
printf 'name: encoding-18\nhorizon_days: 10\n# \355\240\200\nreplications: 1\npopulation:\n  installs: 150\n'
