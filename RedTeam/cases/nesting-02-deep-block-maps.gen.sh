#!/bin/sh
# case: 3,000 levels of nested block maps under outputs
# expect: reject
# Prints the scenario on stdout.
printf 'name: nesting-02\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\noutputs:\n'; awk 'BEGIN { for (i = 1; i <= 3000; i++) { s = ""; for (j = 0; j < i; j++) s = s " "; print s "k" i ":" } }'
