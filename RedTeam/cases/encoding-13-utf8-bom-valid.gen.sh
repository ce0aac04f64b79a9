#!/bin/sh
# case: a valid scenario in UTF-8 with a BOM
# expect: no-crash
# Prints the scenario on stdout.
printf '\357\273\277name: encoding-13\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\n'
