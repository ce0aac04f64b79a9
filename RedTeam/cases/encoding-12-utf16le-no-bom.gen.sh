#!/bin/sh
# case: UTF-16LE without a byte-order mark (ambiguous: must not crash or write elsewhere)
# expect: no-crash
# Prints the scenario on stdout.
printf 'name: encoding-12\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\n' | iconv -f UTF-8 -t UTF-16LE
