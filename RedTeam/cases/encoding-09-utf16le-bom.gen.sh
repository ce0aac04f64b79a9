#!/bin/sh
# case: a valid small scenario in UTF-16LE with a byte-order mark (refused by name: scenarios are UTF-8)
# expect: reject
# Prints the scenario on stdout.
printf '\377\376'; printf 'name: encoding-09\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\n' | iconv -f UTF-8 -t UTF-16LE
