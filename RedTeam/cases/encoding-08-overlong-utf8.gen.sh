#!/bin/sh
# case: an overlong UTF-8 sequence (C0 AF, a disguised slash) in a comment of a valid scenario
# expect: reject
# Prints the scenario on stdout.
printf 'name: encoding-08\nhorizon_days: 10\nreplications: 1\n# path a\300\257b\npopulation:\n  installs: 150\n'
