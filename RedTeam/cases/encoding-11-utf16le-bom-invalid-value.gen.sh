#!/bin/sh
# case: UTF-16LE with a BOM, readable, but horizon_days is -3
# expect: reject
# Prints the scenario on stdout.
printf '\377\376'; printf 'name: encoding-11\nhorizon_days: -3\nreplications: 1\npopulation:\n  installs: 150\n' | iconv -f UTF-8 -t UTF-16LE
