#!/bin/sh
# case: 20,000 unknown keys under rules.tokens
# expect: reject
# Prints the scenario on stdout.
printf 'name: big-04\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\nrules:\n  tokens:\n'; seq -f '    knob_%g: 1' 1 20000
