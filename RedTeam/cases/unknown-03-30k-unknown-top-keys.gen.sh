#!/bin/sh
# case: 30,000 unknown top-level keys
# expect: reject
# Prints the scenario on stdout.
printf 'name: unknown-03\nhorizon_days: 10\n'; seq -f 'mystery_%g: 1' 1 30000
