#!/bin/sh
# case: UTF-8 continuation bytes (0x80 0xBF) with no lead byte, in a comment
# expect: reject
# Prints the scenario on stdout.
printf 'name: encoding-17\nhorizon_days: 10\n# \200\277 stray\nreplications: 1\npopulation:\n  installs: 150\n'
