#!/bin/sh
# case: a valid small scenario in UTF-16BE with a byte-order mark (refused by name: scenarios are UTF-8)
# expect: reject
# Prints the scenario on stdout.
printf '\376\377'; printf 'name: encoding-10\nhorizon_days: 7\nreplications: 1\npopulation:\n  installs: 120\n  personas:\n    - name: worker\n      share: 1\n' | iconv -f UTF-8 -t UTF-16BE
